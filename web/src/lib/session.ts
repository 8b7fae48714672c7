import { ApiError, answer, api, setUnauthorizedHandler } from '@api/client';
import { queryClient } from '@api/query-client';
import type { PrivateUserJson as User } from '@contract/users';
import { atom, useAtom } from 'jotai';
import { useCallback } from 'react';
import { followAccountLocale } from './i18n';
import { runSignOutResets } from './sign-out';
import { appStore } from './store';
import { dismissAllToasts } from './toast';
import { clearToken, readToken, storeToken } from './token-cookie';

export type { PrivateUserJson as User } from '@contract/users';

const getCurrentUser = () => answer(api.users.$get());

/**
 * `unreachable`: the server could not be asked (network, 502); the login is kept and the user can retry.
 * `signed-out`: this tab's person just left (sign-out, account deleted, session ended by the server): unlike a
 * visitor who arrives `unauthenticated`, the page they were on is not remembered for whoever signs in next.
 */
export type SessionStatus =
  | 'loading'
  | 'authenticated'
  | 'unauthenticated'
  | 'signed-out'
  | 'needs-verification'
  | 'unreachable';
export type Session = { status: SessionStatus; user: User | null };

export const sessionAtom = atom<Session>({ status: 'loading', user: null });
/** Bumped each time a person's session ends: the app's tree is keyed by it, so no screen keeps their state. */
export const sessionGenerationAtom = atom(0);

/** What the app keeps in this browser for the person signed in: keys under `classroom.`, a scanned invite. */
const personalStorageKey = (key: string) => key.startsWith('classroom.') || key === 'pendingInviteCode';

/**
 * The one way a person's session ends in this tab. Everything that belonged to them goes before the next person
 * can sign in: the token, the query cache (in-flight requests too), what each feature registered with `onSignOut`
 * (lib/sign-out.ts), toasts, the page to come back to, what the app stored in this browser, and every screen's own
 * state.
 */
export function endSession() {
  clearToken();
  void runSignOutResets();
  void queryClient.cancelQueries();
  queryClient.clear();
  dismissAllToasts();
  try {
    sessionStorage.clear();
    for (const key of Object.keys(localStorage)) if (personalStorageKey(key)) localStorage.removeItem(key);
  } catch {
    // storage blocked (private mode): nothing was kept there
  }
  appStore.set(sessionGenerationAtom, (generation) => generation + 1);
  appStore.set(sessionAtom, { status: 'signed-out', user: null });
  // The next person sees this device's language (or the browser's), never the last person's own choice.
  followAccountLocale(null);
}

/** Runs once at app start: with a token cookie, fetch the user; without one, signed out. */
export async function loadSession(): Promise<Session> {
  if (!readToken()) return { status: 'unauthenticated', user: null };
  try {
    const user = await getCurrentUser();
    followAccountLocale(user.locale);
    return { status: 'authenticated', user };
  } catch (error) {
    if (error instanceof ApiError && error.requiresVerification) return { status: 'needs-verification', user: null };
    // Only the server saying the session is over ends it; a flaky network at start-up must not (docs/accounts.md).
    if (error instanceof ApiError && error.status === 401) {
      clearToken();
      return { status: 'unauthenticated', user: null };
    }
    return { status: 'unreachable', user: null };
  }
}

export function useSession() {
  const [session, setSession] = useAtom(sessionAtom);

  /** Stores the token, fetches the user and marks the session authenticated; throws if the fetch fails. */
  const signIn = useCallback(
    async (token: string) => {
      // Whatever the last person was told ("Logged out successfully") is not for this one.
      dismissAllToasts();
      storeToken(token);
      // Nothing fetched while signed out (an invite's preview, say) is carried into the person's session.
      queryClient.clear();
      const user = await getCurrentUser();
      // The account's language wins while it is signed in (the page reloads in it when it differs).
      followAccountLocale(user.locale, { atNextPage: true });
      setSession({ status: 'authenticated', user });
      return user;
    },
    [setSession],
  );

  const signOut = useCallback(() => endSession(), []);

  const setUser = useCallback((user: User) => setSession({ status: 'authenticated', user }), [setSession]);

  return { ...session, signIn, signOut, setUser };
}

/** Wires the API client's 401 to the session, so an expired or revoked token ends it like a sign-out. */
export function bindSessionToClient() {
  setUnauthorizedHandler(endSession);
}
