import { formatNumber } from '@lib/format';
import { t } from '@lib/i18n';
import { useWaitingTeachers } from '../api/admin';

/**
 * The count of teachers waiting for approval, as a small red pill; nothing when none waits. Render it for
 * administrators only (the API refuses everyone else). Screen readers hear the sentence, not the bare number.
 */
export function WaitingTeachersBadge({ className = '' }: { className?: string }) {
  const { data } = useWaitingTeachers();
  const count = data?.count ?? 0;
  if (count === 0) return null;
  return (
    <span
      data-testid="waiting-teachers"
      className={`inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-red-600 px-1.5 text-xs font-semibold text-white ${className}`}
    >
      <span aria-hidden="true">{formatNumber(count)}</span>
      <span className="sr-only">{t('admin.waitingTeachers', { count })}</span>
    </span>
  );
}
