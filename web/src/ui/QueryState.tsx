import { errorMessage } from '@api/query-client';
import { t } from '@lib/i18n';
import { onlineManager, type UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Spinner } from './Spinner';

/**
 * The one way a screen shows server data: a spinner while loading, the error with a Retry button when the
 * first load failed or cannot start offline (never empty data a save could overwrite, never a spinner for ever),
 * `empty` when there is nothing, else `children`.
 */
export function QueryState<T>({
  query,
  label,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  children,
  compact = false,
}: {
  query: UseQueryResult<T>;
  /**
   * What is loading, translated, as a noun phrase that reads after "Loading" and "Could not load" ("classes",
   * "your notes"): the spinner's name and the error's first line are sentences made around it.
   */
  label: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
  compact?: boolean;
}) {
  // Data once loaded stays on screen when a background refetch fails; only a first load shows the error.
  if (query.data === undefined) {
    if (query.isError || query.fetchStatus === 'paused') {
      return <LoadError label={label} query={query} />;
    }
    return (
      <div className={`flex justify-center ${compact ? 'py-6' : 'py-20'}`}>
        <Spinner label={t('ui.loadingWhat', { what: label })} />
      </div>
    );
  }
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/** The words for a first load TanStack Query holds back while the browser says it is offline. */
export const offlineMessage = () => t('ui.offlineLoad');

/**
 * A failed first load: what could not be loaded, why, and Retry. A load held back offline (TanStack Query pauses it
 * until the browser is online again, with no error) says so too, instead of a spinner that never ends.
 */
export function LoadError({
  label,
  query,
}: {
  label: string;
  query: Pick<UseQueryResult<unknown>, 'error' | 'refetch' | 'isFetching' | 'fetchStatus'>;
}) {
  const paused = query.fetchStatus === 'paused';
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-center"
    >
      <p className="text-sm font-medium text-red-800">{t('ui.loadFailedWhat', { what: label })}</p>
      <p className="text-sm text-red-700">{paused ? offlineMessage() : errorMessage(query.error)}</p>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          // Held back offline: the browser may be back without having said so (no `online` event); ask it again.
          if (paused) onlineManager.setOnline(navigator.onLine);
          void query.refetch();
        }}
        disabled={query.isFetching}
      >
        {t(query.isFetching ? 'common.retrying' : 'common.retry')}
      </button>
    </div>
  );
}
