import { subscribeOnline } from '@lib/online';
import { usePersonEffect } from '@lib/person';
import { flushNotes, hasQueuedNotes, refreshQueuedNotes } from '../state/notes-queue';

/** How often notes written offline are tried again while they wait. */
const NOTES_RETRY_MS = 5000;

/**
 * Runs in the signed-in shell: reads the notes written offline on this device for the person, and sends them once
 * at start and each time the connection is back (docs/offline.md).
 */
export function useNotesSync() {
  usePersonEffect(() => {
    refreshQueuedNotes();
    const sync = () => {
      if (navigator.onLine) void flushNotes();
    };
    sync();
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
  });
}
