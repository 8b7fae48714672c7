import { pendingInvite } from './pending-invite';

const RETURN_KEY = 'returnAfterSignIn';

/** The page a signed-out visitor asked for, kept through login (and verification) in this tab. */
export const returnAfterSignIn = {
  set(path: string) {
    // Only a path of this app: never another origin (`//host`) a crafted link could smuggle in.
    if (path.startsWith('/') && !path.startsWith('//')) sessionStorage.setItem(RETURN_KEY, path);
  },
  take(): string | null {
    const path = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return path;
  },
  /** The page kept, left in place (a school sign-in that fails comes back to this tab). */
  peek: (): string | null => sessionStorage.getItem(RETURN_KEY),
};

/** Where to go once signed in: the class a scanned invite pointed at, else the page asked for, else the class list. */
export function destinationAfterSignIn(): { path: string; viaInvite: boolean } {
  const code = pendingInvite.get();
  const asked = returnAfterSignIn.take();
  if (code) {
    pendingInvite.clear();
    return { path: `/join/${encodeURIComponent(code)}`, viaInvite: true };
  }
  return { path: asked ?? '/classroom', viaInvite: false };
}

/** Where a school sign-in should come back to: the same choice, read without using it up (it may fail). */
export function schoolSignInNext(): string {
  const code = pendingInvite.get();
  return code ? `/join/${encodeURIComponent(code)}` : (returnAfterSignIn.peek() ?? '/classroom');
}
