import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { Avatar } from '@ui/Avatar';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { QueryState } from '@ui/QueryState';
import { useState } from 'react';
import { useRemoveStudent, useRoster } from '../api/courses';

/** For the teacher: who is in the class, and Remove (the student loses access at once). */
export function ClassRoster({ courseId }: { courseId: string }) {
  const query = useRoster(courseId);
  const remove = useRemoveStudent(courseId);
  const [removing, setRemoving] = useState<{ _id: string; username: string } | null>(null);
  return (
    <section aria-labelledby="roster-title" className="card overflow-hidden">
      <h2 id="roster-title" className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-900">
        {t('classes.roster.title')}
      </h2>
      <div className="p-4">
        <QueryState
          query={query}
          label={t('classes.roster.what')}
          compact
          empty={<p className="text-sm text-slate-600">{t('classes.roster.empty')}</p>}
        >
          {(students) => (
            <ul className="flex flex-col gap-3">
              {students.map((student) => (
                <li key={student._id} className="flex items-center gap-3">
                  <Avatar src={student.profilePictureImageLink} name={student.username} size={32} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-slate-900" translate="no">
                      {student.username}
                    </span>
                    <span className="block truncate text-xs text-slate-600" translate="no">
                      {student.email}
                    </span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-secondary h-8 px-3 text-xs"
                    onClick={() => setRemoving(student)}
                    aria-label={t('classes.roster.removeLabel', { name: student.username })}
                  >
                    {t('common.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t('classes.roster.confirmTitle', { name: removing?.username ?? '' })}
        confirmLabel={t('common.remove')}
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => {
              toast.success(t('classes.roster.removed', { name: removing.username }));
              setRemoving(null);
            },
          })
        }
      >
        {t('classes.roster.confirmBody')}
      </ConfirmDialog>
    </section>
  );
}
