import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../auth/state/session';
import { checkSavedAccess, forgetOfflineData, pruneSaved, refreshSaved } from '../state/downloads';
import { flushNotes, hasQueuedNotes, refreshQueuedNotes } from '../state/notes-queue';

/** How often notes written offline are tried again while they wait. */
const NOTES_RETRY_MS = 5000;

/** Registers the service worker once the page has loaded: nothing of it competes with the first paint. */
function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {
      // No worker (blocked, private mode): the app works online, and offers the MP4 instead of saving.
    });
    // The manifest makes the app installable; linked here so the sign-in page does not fetch it.
    if (!document.querySelector('link[rel="manifest"]')) {
      const link = document.createElement('link');
      link.rel = 'manifest';
      link.href = '/manifest.webmanifest';
      document.head.append(link);
    }
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * Runs in the signed-in shell: registers the service worker, drops any other person's offline data, and each time
 * the connection is back (and once at start) sends notes written offline and checks that saved lectures are still
 * the person's to watch.
 */
export function useOfflineSync() {
  const { user } = useSession();
  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    registerServiceWorker();
    refreshSaved();
    refreshQueuedNotes();
    const sync = () => {
      if (!navigator.onLine) return;
      void flushNotes();
      void checkSavedAccess();
    };
    void forgetOfflineData(userId).then(pruneSaved).then(sync);
    // `navigator.onLine` can say online while nothing gets through (and some browsers never send `online`): notes
    // still waiting are tried again every few seconds.
    const retry = setInterval(() => {
      if (navigator.onLine && hasQueuedNotes()) void flushNotes();
    }, NOTES_RETRY_MS);
    const unsubscribe = subscribeOnline(sync);
    return () => {
      clearInterval(retry);
      unsubscribe();
    };
  }, [userId]);
}

/** How often `navigator.onLine` is looked at too: some browsers change it without an `online` event. */
const ONLINE_POLL_MS = 3000;
const onlineListeners = new Set<() => void>();
let lastOnline = typeof navigator === 'undefined' ? true : navigator.onLine;
let poll: ReturnType<typeof setInterval> | undefined;
const noticeOnline = () => {
  if (navigator.onLine === lastOnline) return;
  lastOnline = navigator.onLine;
  for (const listener of onlineListeners) listener();
};

/** Calls back when the browser goes online or offline (its events, and a poll for browsers that send none). */
function subscribeOnline(onChange: () => void) {
  onlineListeners.add(onChange);
  if (onlineListeners.size === 1) {
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
