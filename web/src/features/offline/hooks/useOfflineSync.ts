import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../auth/state/session';
import { checkSavedAccess, forgetOfflineData, pruneSaved, refreshSaved } from '../state/downloads';
import { flushNotes, hasQueuedNotes, refreshQueuedNotes } from '../state/notes-queue';
import { linkManifest, registerServiceWorker } from '../state/service-worker';

/** How often notes written offline are tried again while they wait. */
const NOTES_RETRY_MS = 5000;

/**
 * Runs in the signed-in shell: links the manifest, registers the service worker (offline, the app's own page opens,
 * not the browser's: state/service-worker.ts), drops any other person's offline data, and each time
 * the connection is back (and once at start) sends notes written offline and checks that saved lectures are still
 * the person's to watch.
 */
export function useOfflineSync() {
  const { user } = useSession();
  const userId = user?._id;
  useEffect(() => {
    if (!userId) return;
    linkManifest();
    refreshSaved();
    void registerServiceWorker();
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
