import { answer, api } from '@api/client';
import { queryClient } from '@api/query-client';
import type { ProvidersJson as Providers } from '@contract/users';
import { useCallback, useEffect, useState } from 'react';

/** How this server lets people in: the password forms, and the school's OpenID Connect button (its label). */
export type { ProvidersJson as Providers } from '@contract/users';

const getProviders = () => answer(api.auth.providers.$get());

/**
 * The sign-in options' cache key, kept here and named by @api/query-keys (accountKeys.providers): the sign-in page
 * then loads none of the other keys (bench:web's budget).
 */
export const providersKey = ['auth', 'providers'] as const;

const providersOptions = {
  queryKey: providersKey,
  queryFn: getProviders,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
};

/** Asks for the sign-in options as the app starts, in parallel with the sign-in page's own code. */
export const prefetchProviders = () => queryClient.prefetchQuery(providersOptions);

/**
 * The sign-in options, kept in the one query cache for the whole visit. Read through the cache without a query
 * observer: the sign-in page stays inside its transfer budget (bench:web). `retry` asks again after a failure.
 */
export function useProviders() {
  const [state, setState] = useState<{ data?: Providers; error?: unknown }>(() => ({
    data: queryClient.getQueryData<Providers>(providersOptions.queryKey),
  }));
  const load = useCallback(() => {
    setState({});
    queryClient.fetchQuery(providersOptions).then(
      (data) => setState({ data }),
      (error) => setState({ error }),
    );
  }, []);
  useEffect(() => {
    // The app's prefetch may have landed between the first render and now.
    const cached = queryClient.getQueryData<Providers>(providersOptions.queryKey);
    if (cached) setState((state) => (state.data ? state : { data: cached }));
    else load();
  }, [load]);
  return { ...state, retry: load };
}

/**
 * Where the school button goes: a plain top-level navigation to the server, which sends the browser to the school's
 * provider and back to `next` (a path of this app) signed in. `link` adds the school account to the one signed in.
 * Settings adds `&intent=confirm` (SchoolConfirm.tsx) and the problem page `&switch=1` in their own chunks: this
 * builder is in the sign-in page's bundle, whose budget counts every byte (bench:web).
 */
export const schoolSignInUrl = (next: string, intent?: 'link') =>
  `/api/auth/oidc/start?${intent ? 'intent=link&' : ''}next=${encodeURIComponent(next)}`;
