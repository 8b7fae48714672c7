import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../auth/state/session';
import { checkSavedAccess, forgetOfflineData, refreshSaved } from '../state/downloads';
import { flushNotes, refreshQueuedNotes } from '../state/notes-queue';

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
    void forgetOfflineData(userId).then(sync);
    window.addEventListener('online', sync);
    return () => window.removeEventListener('online', sync);
  }, [userId]);
}

const subscribeOnline = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser believes it is online (it can be wrong one way: "online" with a dead Wi-Fi). */
export const useOnline = () =>
  useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
