import { t } from '@lib/i18n';
import type { ReactNode } from 'react';
import { Modal } from './Modal';

/** "Are you sure?" with what goes, a Cancel and a (usually red) confirm button that shows it is working. */
export function ConfirmDialog({
  open,
  title,
  heading,
  children,
  confirmLabel,
  busyLabel = t('common.working'),
  busy,
  danger = true,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  /** The title as drawn, when it holds someone's words (see Modal). */
  heading?: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  /** What the confirm button says while it works (default 'Working...'). */
  busyLabel?: string;
  busy: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal open={open} title={title} heading={heading} onClose={onClose}>
      <div className="text-slate-700">{children}</div>
      <div className="mt-5 flex justify-end gap-2">
        <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
          onClick={onConfirm}
          disabled={busy}
        >
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
