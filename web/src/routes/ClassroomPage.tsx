import { t } from '@lib/i18n';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { usePageTitle } from '@lib/use-page-title';
import { BookIcon, LogInIcon, PlusIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppInfo } from '../features/classes/api/app';
import { type Course, useCourses, useDeleteCourse, useRenameCourse } from '../features/classes/api/courses';
import { ClassCard } from '../features/classes/components/ClassCard';
import { CreateClassModal } from '../features/classes/components/CreateClassModal';
import { JoinClassModal } from '../features/classes/components/JoinClassModal';
import { TodoList } from '../features/classes/components/TodoList';

/** Only a teacher with a recording left in this browser needs it: loaded apart from the class list. */
const RecordingRecovery = lazy(async () => ({
  default: (await import('../features/recording/components/RecordingRecovery')).RecordingRecovery,
}));

export function ClassroomPage() {
  const { user } = useSession();
  const isTeacher = user?.role === 'teacher';
  const mayTeach = isTeacher && user?.teacherStatus === 'approved';
  const query = useCourses();
  const appInfo = useAppInfo({ enabled: mayTeach }).data;
  usePageTitle(t('classes.page.title'));
  const rename = useRenameCourse();
  const remove = useDeleteCourse();
  const [createOpen, setCreateOpen] = useState(false);
  // `?join` (a dead invite's "Enter a class code") opens the join form at once.
  const [search, setSearch] = useSearchParams();
  const [joinOpen, setJoinOpen] = useState(() => search.has('join'));

  // Both throw on failure, so the card stays open with what the user typed (the toast says why).
  const onRename = async (course: Course, courseName: string) => {
    await rename.mutateAsync({ id: course._id, courseName });
    toast.success(t('classes.page.renamed', { name: courseName }));
  };
  const onDelete = async (course: Course) => {
    await remove.mutateAsync(course._id);
    toast.success(t('classes.page.deleted', { name: course.courseName }));
  };

  return (
    <section>
      <div className="flex items-center justify-between gap-4">
        <h1 className="page-title">{t('classes.page.title')}</h1>
        {isTeacher ? (
          <button type="button" className="btn btn-primary" onClick={() => setCreateOpen(true)} disabled={!mayTeach}>
            <PlusIcon size={18} /> {t('classes.page.create')}
          </button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => setJoinOpen(true)}>
            <LogInIcon size={18} /> {t('classes.page.join')}
          </button>
        )}
      </div>

      {isTeacher && !mayTeach && (
        <p role="status" className="mt-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900">
          {user?.teacherStatus === 'declined' ? t('classes.page.declined') : t('classes.page.pending')}
        </p>
      )}
      {!isTeacher && <TodoList />}
      {mayTeach && user && (
        <div className="mt-4">
          <Suspense fallback={null}>
            <RecordingRecovery userId={user._id} limits={appInfo} />
          </Suspense>
        </div>
      )}
      <div className="mt-6">
        <QueryState
          query={query}
          label={t('classes.page.what')}
          empty={
            <div className="empty-state">
              <BookIcon size={40} className="text-indigo-400" />
              <p className="mt-3 font-medium text-slate-800">{t('classes.page.empty')}</p>
              <p className="mt-1 max-w-sm text-sm text-slate-600">
                {t(isTeacher ? 'classes.page.emptyTeacher' : 'classes.page.emptyStudent')}
              </p>
              <button
                type="button"
                className="btn btn-primary mt-5"
                onClick={() => (isTeacher ? setCreateOpen(true) : setJoinOpen(true))}
                disabled={isTeacher && !mayTeach}
              >
                {t(isTeacher ? 'classes.page.createFirst' : 'classes.page.joinFirst')}
              </button>
            </div>
          }
        >
          {(courses) => (
            // The spec's grid: one column on phones, two on tablets, four on large screens (from 1280 px, where four
            // cards beside the open navigation are still 230 px wide).
            <div data-testid="class-grid" className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-4">
              {courses.map((course, index) => (
                <ClassCard
                  key={course._id}
                  course={course}
                  index={index}
                  isTeacher={isTeacher}
                  onRename={onRename}
                  onDelete={onDelete}
                />
              ))}
            </div>
          )}
        </QueryState>
      </div>

      {isTeacher && <CreateClassModal open={createOpen} onClose={() => setCreateOpen(false)} />}
      {!isTeacher && (
        <JoinClassModal
          open={joinOpen}
          onClose={() => {
            setJoinOpen(false);
            if (search.has('join')) setSearch({}, { replace: true });
          }}
        />
      )}
    </section>
  );
}
