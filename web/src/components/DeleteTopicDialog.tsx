import { useState } from 'react';
import type { Lecture } from '../api/lectures';
import { Modal } from './Modal';

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
  return (
    <Modal open={lecture !== null} title="Confirm Deletion" onClose={onClose}>
      <p className="text-slate-700">Are you sure you want to delete this lecture?</p>
      {lecture && <p className="mt-1 font-medium break-words text-slate-900">{lecture.nameOfTopic}</p>}
      <div className="mt-5 flex justify-end gap-2">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={async () => {
            if (!lecture) return;
            setBusy(true);
            try {
              await onConfirm(lecture);
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </Modal>
  );
}
