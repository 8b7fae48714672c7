import { LIMITS } from '@contract/limits';
import { teacherName } from '@lib/course-teacher';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { rich, t } from '@lib/i18n';
import { useMutation } from '@tanstack/react-query';
import { Field } from '@ui/Field';
import { BookIcon, MoreIcon, PlayIcon, ShareIcon } from '@ui/icons';
import { Modal } from '@ui/Modal';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Course } from '../api/courses';

/** The class routes' request schemas: a new name is checked by the server's own rule before it is sent. */
const contract = () => loadSchemas(() => import('@contract/courses'));

/** The spec's 13 pastel card colours, used in turn by position. */
export const CARD_COLOURS = [
  '#fde2e4',
  '#fad2e1',
  '#e2ece9',
  '#bee1e6',
  '#f0efeb',
  '#dfe7fd',
  '#cddafd',
  '#fff1e6',
  '#e9f5db',
  '#fef9c3',
  '#e0f2fe',
  '#ede9fe',
  '#fce7f3',
];

export function ClassCard({
  course,
  index,
  isTeacher,
  onRename,
  onDelete,
}: {
  course: Course;
  index: number;
  isTeacher: boolean;
  onRename: (course: Course, name: string) => Promise<void>;
  onDelete: (course: Course) => Promise<void>;
}) {
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(course.courseName);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const closeMenu = () => {
    setMenuOpen(false);
    setEditing(false);
    setConfirmDelete(false);
    setName(course.courseName);
    form.clear();
  };

  // The page's own calls (they toast what happened), as mutations: their isPending is the card's busy state.
  const form = useForm({
    schema: async () => (await contract()).updateCourseBody,
    mutation: useMutation({
      mutationFn: ({ courseName }: { courseName: string }) => onRename(course, courseName),
      meta: { quiet: true },
    }),
    send: ({ courseName }: { courseName: string }) => ({ courseName: courseName.trim() }),
  });
  const remove = useMutation({ mutationFn: () => onDelete(course), meta: { quiet: true } });
  const busy = form.busy || remove.isPending;

  async function onSave(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return;
    // Not renamed: the menu stays open with the new name, and the toast says why.
    await form.submit({ courseName: name }, { onSuccess: closeMenu });
  }

  function onConfirmDelete() {
    // Not deleted: the confirmation stays, and the toast says why.
    remove.mutate(undefined, { onSuccess: () => setMenuOpen(false) });
  }

  return (
    <article
      className="group relative flex min-h-44 flex-col rounded-2xl border border-black/5 p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md"
      style={{ backgroundColor: CARD_COLOURS[index % CARD_COLOURS.length] }}
    >
      <Link
        to={`/classroom/${course._id}`}
        className="min-w-0 flex-1 rounded-lg after:absolute after:inset-0 after:content-['']"
      >
        {/* Names wrap between words (up to 3 lines); room for the options button only when there is one. */}
        <h2
          title={course.courseName}
          className={`line-clamp-3 text-lg font-semibold [overflow-wrap:break-word] text-slate-900 ${isTeacher ? 'pe-10' : ''}`}
        >
          {course.hasNew && (
            // Something new since the last visit (a lecture for students, a comment for the teacher).
            <span
              role="img"
              aria-label={t('classes.card.new')}
              title={t('classes.card.newSinceVisit')}
              className="me-2 inline-block h-2.5 w-2.5 rounded-full bg-indigo-600 align-middle ring-2 ring-white"
            />
          )}
          <span translate="no">{course.courseName}</span>
        </h2>
        <p className="mt-1 truncate text-sm text-slate-700">
          <span translate="no">{teacherName(course)}</span>
          {course.semester ? ` · ${t('classes.semester', { semester: course.semester })}` : ''}
        </p>
      </Link>
      {isTeacher && (
        <button
          type="button"
          className="icon-btn absolute end-3 top-3 z-10 bg-white/60 hover:bg-white"
          aria-label={t('classes.card.options', { name: course.courseName })}
          onClick={() => setMenuOpen(true)}
        >
          <MoreIcon size={18} />
        </button>
      )}
      <div className="relative z-10 mt-4 flex gap-2">
        <button
          type="button"
          className="icon-btn bg-white/70 hover:bg-white"
          aria-label={t('classes.card.watchOf', { name: course.courseName })}
          title={t('classes.card.watch')}
          onClick={() => navigate(`/classroom/${course._id}`)}
        >
          <PlayIcon size={16} />
        </button>
        {isTeacher ? (
          <button
            type="button"
            className="icon-btn bg-white/70 hover:bg-white"
            aria-label={t('classes.card.shareOf', { name: course.courseName })}
            title={t('classes.shareClassroom')}
            onClick={() => navigate(`/share/${course._id}`)}
          >
            <ShareIcon size={16} />
          </button>
        ) : (
          <button
            type="button"
            className="icon-btn bg-white/70 hover:bg-white"
            aria-label={t('classes.card.notesOf', { name: course.courseName })}
            title={t('classes.card.notes')}
            onClick={() => navigate(`/classroom/${course._id}#notes`)}
          >
            <BookIcon size={16} />
          </button>
        )}
      </div>

      <Modal open={menuOpen} title={course.courseName} onClose={closeMenu}>
        {editing ? (
          <form onSubmit={onSave} onFocus={form.prefetch} className="flex flex-col gap-3">
            <Field
              label={t('classes.card.classTitle')}
              id={`rename-${course._id}`}
              value={name}
              maxLength={LIMITS.courseNameMax}
              onValue={setName}
              problem={form.problems.courseName}
              // The dialog opened for this input.
              autoFocus
            />
            <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>
              {t(busy ? 'common.saving' : 'common.save')}
            </button>
          </form>
        ) : confirmDelete ? (
          <div className="flex flex-col gap-3">
            <p className="text-slate-700">
              {rich(t('classes.card.confirmDelete', { name: course.courseName }), [
                (name) => (
                  <strong key="name" translate="no">
                    {name}
                  </strong>
                ),
              ])}
            </p>
            <button type="button" className="btn btn-danger" onClick={onConfirmDelete} disabled={busy}>
              {t(busy ? 'common.deleting' : 'classes.card.deleteClass')}
            </button>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirmDelete(false)}>
              {t('common.cancel')}
            </button>
          </div>
        ) : (
          <div className="flex flex-col gap-2">
            <button type="button" className="btn btn-secondary" onClick={() => setEditing(true)}>
              {t('common.edit')}
            </button>
            <button
              type="button"
              className="btn btn-secondary text-red-600 hover:bg-red-50"
              onClick={() => setConfirmDelete(true)}
            >
              {t('common.delete')}
            </button>
            <button type="button" className="btn btn-secondary" onClick={closeMenu}>
              {t('common.cancel')}
            </button>
          </div>
        )}
      </Modal>
    </article>
  );
}
