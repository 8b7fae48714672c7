import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** The message a user reads for a failed request. */
export const errorMessage = (error: unknown, fallback = t('common.somethingWrong')) =>
  error instanceof ApiError ? error.message : fallback;

declare module '@tanstack/react-query' {
  interface Register {
    /** `quiet`: this mutation reports its own failure (or retries by itself) instead of the default toast. */
    mutationMeta: { quiet?: boolean };
  }
}

/**
 * The one cache of server state. Queries retry once on network trouble but never on a 4xx answer;
 * a failed mutation reaches the user as a toast unless it says it handles the failure itself.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      retry: (failures, error) =>
        failures < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (mutation.meta?.quiet) return;
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast.error(errorMessage(error));
    },
  }),
});
