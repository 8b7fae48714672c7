import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import type { Lecture } from '../api/lectures';

/** The spec's "Confirm Deletion" of a topic. */
export function DeleteTopicDialog({
  lecture,
  onClose,
  onConfirm,
}: {
  lecture: Lecture | null;
  onClose: () => void;
  onConfirm: (lecture: Lecture) => Promise<void>;
}) {
  // The page's own call (it says what happened), as a mutation: its isPending is the dialog's busy state.
  const remove = useMutation({ mutationFn: onConfirm, meta: { quiet: true } });
  const confirm = () => {
    if (lecture) remove.mutate(lecture);
  };
  return (
    <ConfirmDialog
      open={lecture !== null}
      title="Confirm Deletion"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={confirm}
    >
      <p>Are you sure you want to delete this lecture?</p>
      {lecture && <p className="mt-1 font-medium break-words text-slate-900">{lecture.nameOfTopic}</p>}
    </ConfirmDialog>
  );
}
