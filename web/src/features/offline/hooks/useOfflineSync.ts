import { subscribeOnline } from '@lib/online';
import { usePersonEffect } from '@lib/person';
import { checkSavedAccess, forgetOfflineData, pruneSaved, startOfflineData } from '../state/downloads';
import { linkManifest, registerServiceWorker } from '../state/service-worker';

/**
 * Runs in the signed-in shell: links the manifest, registers the service worker (offline, the app's own page opens,
 * not the browser's: state/service-worker.ts), drops any other person's offline data, and each time the connection
 * is back (and once at start) checks that saved lectures are still the person's to watch.
 */
export function useOfflineSync() {
  usePersonEffect((userId) => {
    linkManifest();
    startOfflineData();
    void registerServiceWorker();
    const sync = () => {
      if (navigator.onLine) void checkSavedAccess();
    };
    void forgetOfflineData(userId).then(pruneSaved).then(sync);
    return subscribeOnline(sync);
  });
}
