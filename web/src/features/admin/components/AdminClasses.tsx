import { teacherName } from '@lib/course-teacher';
import { formatBytes } from '@lib/format';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { QueryState } from '@ui/QueryState';
import { theirWords } from '@ui/TheirWords';
import { useState } from 'react';
import { type AdminCourse, useAdminCourses, useDeleteClass } from '../api/admin';

/** Every class on the server, with its teacher, students, lectures and the disk its videos use. */
export function AdminClasses() {
  const query = useAdminCourses();
  const remove = useDeleteClass();
  const [deleting, setDeleting] = useState<AdminCourse | null>(null);
  return (
    <section aria-labelledby="admin-classes">
      <h2 id="admin-classes" className="sr-only">
        {t('admin.tab.classes')}
      </h2>
      <QueryState
        query={query}
        label={t('admin.classes.what')}
        empty={<p className="text-sm text-slate-600">{t('admin.classes.empty')}</p>}
      >
        {(courses) => (
          <ul className="flex flex-col gap-3">
            {courses.map((course) => (
              <li key={course._id} className="card flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words text-slate-900" translate="no">
                    {course.courseName}
                  </p>
                  <p className="text-sm text-slate-600">
                    {theirWords(
                      t(teacherName(course) ? 'admin.classes.facts' : 'admin.classes.factsNoTeacher', {
                        teacher: teacherName(course),
                        students: course.students,
                        lectures: course.lectures,
                        size: formatBytes(course.storageBytes),
                      }),
                    )}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-danger h-9 self-start px-3 text-sm sm:self-auto"
                  onClick={() => setDeleting(course)}
                  aria-label={t('admin.classes.deleteLabel', { name: course.courseName })}
                >
                  {t('common.delete')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.deleteTitle', { name: deleting?.courseName ?? '' })}
        heading={theirWords(t('admin.deleteHeading', { name: deleting?.courseName ?? '' }))}
        confirmLabel={t('admin.classes.confirm')}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              toast.success(t('admin.classes.deleted'));
              setDeleting(null);
            },
          })
        }
      >
        {t('admin.classes.confirmText', {
          lectures: deleting?.lectures ?? 0,
          size: formatBytes(deleting?.storageBytes ?? 0),
          students: deleting?.students ?? 0,
        })}
      </ConfirmDialog>
    </section>
  );
}
