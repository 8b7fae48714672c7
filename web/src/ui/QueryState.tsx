import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/query-client';
import { Spinner } from './Spinner';

/**
 * The one way a screen shows server data: a spinner while loading, the error with a Retry button when the
 * first load failed (never empty data a save could overwrite), `empty` when there is nothing, else `children`.
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
  /** What is loading, in words ("classes"): for the spinner and the error. */
  label: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
  compact?: boolean;
}) {
  // Data once loaded stays on screen when a background refetch fails; only a first load shows the error.
  if (query.data === undefined) {
    if (query.isError) {
      return <LoadError label={label} query={query} />;
    }
    return (
      <div className={`flex justify-center ${compact ? 'py-6' : 'py-20'}`}>
        <Spinner label={`Loading ${label}`} />
      </div>
    );
  }
  if (empty !== undefined && isEmpty(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}

/** A failed first load: what could not be loaded, why, and Retry. */
export function LoadError({
  label,
  query,
}: {
  label: string;
  query: Pick<UseQueryResult<unknown>, 'error' | 'refetch' | 'isFetching'>;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-red-50 p-4 text-center"
    >
      <p className="text-sm font-medium text-red-800">Could not load {label}.</p>
      <p className="text-sm text-red-700">{errorMessage(query.error)}</p>
      <button type="button" className="btn btn-secondary" onClick={() => query.refetch()} disabled={query.isFetching}>
        {query.isFetching ? 'Retrying...' : 'Retry'}
      </button>
    </div>
  );
}
