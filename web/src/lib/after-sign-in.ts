import { pendingInvite } from './pending-invite';

/** Where to go once signed in: the class a scanned invite pointed at, else the class list. */
export function destinationAfterSignIn(): { path: string; viaInvite: boolean } {
  const code = pendingInvite.get();
  if (code) {
    pendingInvite.clear();
    return { path: `/join/${encodeURIComponent(code)}`, viaInvite: true };
  }
  return { path: '/classroom', viaInvite: false };
}
