import { atom, useAtom } from 'jotai';
import { useCallback } from 'react';
import { ApiError, setUnauthorizedHandler } from '../api/client';
import { getCurrentUser, type User } from '../api/users';
import { clearToken, readToken, storeToken } from '../lib/token-cookie';

/** `unreachable`: the server could not be asked (network, 502); the login is kept and the user can retry. */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'needs-verification' | 'unreachable';
export type Session = { status: SessionStatus; user: User | null };

export const sessionAtom = atom<Session>({ status: 'loading', user: null });

/** Runs once at app start: with a token cookie, fetch the user; without one, signed out. */
export async function loadSession(): Promise<Session> {
  if (!readToken()) return { status: 'unauthenticated', user: null };
  try {
    return { status: 'authenticated', user: await getCurrentUser() };
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
      storeToken(token);
      const user = await getCurrentUser();
      setSession({ status: 'authenticated', user });
      return user;
    },
    [setSession],
  );

  const signOut = useCallback(() => {
    clearToken();
    setSession({ status: 'unauthenticated', user: null });
  }, [setSession]);

  const setUser = useCallback((user: User) => setSession({ status: 'authenticated', user }), [setSession]);

  return { ...session, signIn, signOut, setUser };
}

/** Wires the API client's 401 to the session, so an expired token signs the user out. */
export function bindSessionToClient(setSession: (session: Session) => void) {
  setUnauthorizedHandler(() => {
    clearToken();
    setSession({ status: 'unauthenticated', user: null });
  });
}
