import { useSyncExternalStore } from 'react';

/** How often `navigator.onLine` is looked at too: some browsers change it without an `online` event. */
const ONLINE_POLL_MS = 3000;
const onlineListeners = new Set<() => void>();
let lastOnline = true;
let poll: ReturnType<typeof setInterval> | undefined;
const noticeOnline = () => {
  if (navigator.onLine === lastOnline) return;
  lastOnline = navigator.onLine;
  for (const listener of onlineListeners) listener();
};

/** Calls back when the browser goes online or offline (its events, and a poll for browsers that send none). */
export function subscribeOnline(onChange: () => void) {
  onlineListeners.add(onChange);
  if (onlineListeners.size === 1) {
    // Read when first asked, not at import: the module touches no browser state until used.
    lastOnline = navigator.onLine;
    window.addEventListener('online', noticeOnline);
    window.addEventListener('offline', noticeOnline);
    poll = setInterval(noticeOnline, ONLINE_POLL_MS);
  }
  return () => {
    onlineListeners.delete(onChange);
    if (onlineListeners.size > 0) return;
    window.removeEventListener('online', noticeOnline);
    window.removeEventListener('offline', noticeOnline);
    clearInterval(poll);
  };
}

/** Whether the browser believes it is online (it can be wrong one way: "online" with a dead Wi-Fi). */
export const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
