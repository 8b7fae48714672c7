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
        Students
      </h2>
      <div className="p-4">
        <QueryState
          query={query}
          label="the students"
          compact
          empty={<p className="text-sm text-slate-600">Nobody has joined yet. Share the class code.</p>}
        >
          {(students) => (
            <ul className="flex flex-col gap-3">
              {students.map((student) => (
                <li key={student._id} className="flex items-center gap-3">
                  <Avatar src={student.profilePictureImageLink} name={student.username} size={32} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-slate-900">{student.username}</span>
                    <span className="block truncate text-xs text-slate-600">{student.email}</span>
                  </span>
                  <button
                    type="button"
                    className="btn btn-secondary h-8 px-3 text-xs"
                    onClick={() => setRemoving(student)}
                    aria-label={`Remove ${student.username} from the class`}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.username ?? ''}?`}
        confirmLabel="Remove"
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing._id, {
            onSuccess: () => {
              toast.success(`${removing.username} was removed from the class.`);
              setRemoving(null);
            },
          })
        }
      >
        They lose access at once, with their notes for this class. They can join again only with the current class code:
        make a new code in Share Classroom to keep them out.
      </ConfirmDialog>
    </section>
  );
}
