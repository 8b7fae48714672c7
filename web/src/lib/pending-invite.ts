const KEY = 'pendingInviteCode';

export const pendingInvite = {
  get: (): string | null => localStorage.getItem(KEY),
  set: (code: string) => localStorage.setItem(KEY, code),
  clear: () => localStorage.removeItem(KEY),
};
