import { t } from '@lib/i18n';
import { type ReactNode, useEffect, useRef } from 'react';
import { CloseIcon } from './icons';

/** A native modal dialog: traps focus, closes on Escape and on a click outside. */
export function Modal({
  open,
  title,
  heading = title,
  onClose,
  wide = false,
  children,
}: {
  open: boolean;
  /** The dialog's name, read by screen readers. */
  title: string;
  /** The title as drawn, when it holds someone's words (a name in `translate="no"`): `title` by default. */
  heading?: ReactNode;
  onClose: () => void;
  /** Room for a picture (the recorder's preview): up to 48rem wide instead of 28rem. */
  wide?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes it; Escape is the dialog's own key
    <dialog
      ref={ref}
      aria-label={title}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      className={`m-auto w-[calc(100%-2rem)] ${wide ? 'max-w-3xl' : 'max-w-md'} rounded-2xl bg-white p-0 shadow-xl backdrop:bg-slate-900/40`}
    >
      {open && (
        <div className="p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 className="text-lg font-semibold text-slate-900">{heading}</h2>
            <button type="button" className="icon-btn -me-2 -mt-1" onClick={onClose} aria-label={t('common.close')}>
              <CloseIcon size={18} />
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** The footer of a form in a modal: Cancel, and the submit button with its busy label. */
export function ModalActions({
  onCancel,
  busy,
  label,
  busyLabel,
}: {
  onCancel: () => void;
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <div className="flex justify-end gap-2">
      <button type="button" className="btn btn-secondary" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </div>
  );
}
