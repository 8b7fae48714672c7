import { teacherName } from '@lib/course-teacher';
import { formatBytes, plural } from '@lib/format';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { QueryState } from '@ui/QueryState';
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
        Classes
      </h2>
      <QueryState query={query} label="classes" empty={<p className="text-sm text-slate-600">No classes yet.</p>}>
        {(courses) => (
          <ul className="flex flex-col gap-3">
            {courses.map((course) => (
              <li key={course._id} className="card flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="font-medium break-words text-slate-900">{course.courseName}</p>
                  <p className="text-sm text-slate-600">
                    {teacherName(course)} · {plural(course.students, 'student')} · {plural(course.lectures, 'lecture')}{' '}
                    · {formatBytes(course.storageBytes)}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn btn-danger h-9 self-start px-3 text-sm sm:self-auto"
                  onClick={() => setDeleting(course)}
                  aria-label={`Delete class ${course.courseName}`}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.courseName ?? ''}?`}
        confirmLabel="Delete class"
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              toast.success('Class deleted');
              setDeleting(null);
            },
          })
        }
      >
        Its {plural(deleting?.lectures ?? 0, 'lecture')} and their videos ({formatBytes(deleting?.storageBytes ?? 0)}),
        the enrollment of its {plural(deleting?.students ?? 0, 'student')} and their notes for it go too.
      </ConfirmDialog>
    </section>
  );
}
