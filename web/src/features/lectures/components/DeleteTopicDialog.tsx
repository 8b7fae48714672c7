import { useState } from 'react';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
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
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!lecture) return;
    setBusy(true);
    try {
      await onConfirm(lecture);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      open={lecture !== null}
      title="Confirm Deletion"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={busy}
      onClose={onClose}
      onConfirm={confirm}
    >
      <p>Are you sure you want to delete this lecture?</p>
      {lecture && <p className="mt-1 font-medium break-words text-slate-900">{lecture.nameOfTopic}</p>}
    </ConfirmDialog>
  );
}
