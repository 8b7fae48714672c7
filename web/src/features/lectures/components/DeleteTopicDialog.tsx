import { t } from '@lib/i18n';
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
      title={t('lectures.delete.title')}
      confirmLabel={t('common.delete')}
      busyLabel={t('common.deleting')}
      busy={remove.isPending}
      onClose={onClose}
      onConfirm={confirm}
    >
      <p>{t('lectures.delete.body')}</p>
      {lecture && (
        <p className="mt-1 font-medium break-words text-slate-900" translate="no">
          {lecture.nameOfTopic}
        </p>
      )}
    </ConfirmDialog>
  );
}
