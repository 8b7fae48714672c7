import { ApiError, answer, api } from '@api/client';
import { queryClient } from '@api/query-client';
import { courseKeys } from '@api/query-keys';
import type { NotesJson } from '@contract/courses';
import { currentUserId, readPersonalRecord } from '@lib/person';
import { onSignOut } from '@lib/sign-out';
import { appStore } from '@lib/store';
import { atom } from 'jotai';
import { mergedNotes, type QueuedNotes } from './notes-merge';

/**
 * Notes written while the server cannot be reached (docs/offline.md): kept in localStorage per person and class,
 * sent when the connection returns. Conflict rule: when the server's notes changed since these were started from
 * (another device saved), neither text is lost: the offline text is added under the server's with a dated line.
 * An empty offline text never replaces newer notes on the server.
 */
export type { QueuedNotes };

const queueKey = (userId: string) => `classroom.offline.notes.${userId}`;
const readQueue = (userId = currentUserId()) => readPersonalRecord<QueuedNotes>(userId && queueKey(userId));

/** Classes whose notes wait on this device to be sent, for the person signed in: read by `refreshQueuedNotes`. */
export const queuedNotesAtom = atom<Record<string, QueuedNotes>>({});

function writeQueue(userId: string, queue: Record<string, QueuedNotes>) {
  localStorage.setItem(queueKey(userId), JSON.stringify(queue));
  appStore.set(queuedNotesAtom, queue);
}

/** Keeps the notes on this device until they can be sent; false when even that failed (storage blocked or full). */
export function queueNotes(courseId: string, text: string, base: string | null): boolean {
  const userId = currentUserId();
  if (!userId) return false;
  try {
    const queue = readQueue(userId);
    // The first base stays: it is what the server had when the offline writing began.
    queue[courseId] = { text, base: queue[courseId]?.base ?? base, at: Date.now() };
    writeQueue(userId, queue);
    return true;
  } catch {
    return false;
  }
}

export const queuedNotesOf = (courseId: string) => readQueue()[courseId];

let flushing: Promise<void> | undefined;

/** Sends every queued class's notes; each leaves the queue only once the server has it. */
export function flushNotes(): Promise<void> {
  flushing ??= (async () => {
    const userId = currentUserId();
    if (!userId) return;
    for (const [courseId, queued] of Object.entries(readQueue(userId))) {
      try {
        const server: NotesJson = await answer(api.enrollments[':courseId'].notes.$get({ param: { courseId } }));
        const notes = mergedNotes(queued, server);
        const saved: NotesJson = await answer(
          api.enrollments[':courseId'].notes.$patch({ param: { courseId }, json: { notes } }),
        );
        const queue = readQueue(userId);
        // Written again while this was sent: the newer text stays queued.
        if (queue[courseId]?.at === queued.at) delete queue[courseId];
        writeQueue(userId, queue);
        queryClient.setQueryData(courseKeys.notes(courseId), saved);
      } catch (error) {
        // Gone from the class: nothing can be sent; the text stays on this device until sign-out.
        if (!(error instanceof ApiError) || error.status === 0) return;
      }
    }
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}

/** Whether notes wait on this device to be sent. */
export const hasQueuedNotes = () => Object.keys(appStore.get(queuedNotesAtom)).length > 0;

/** Re-reads the queue (the person changed); the first call also has sign-out empty it. */
export function refreshQueuedNotes() {
  onSignOut(forgetQueuedNotes);
  appStore.set(queuedNotesAtom, readQueue());
}

// The texts themselves are under `classroom.` keys, which sign-out removes; this empties what the screen shows.
const forgetQueuedNotes = () => appStore.set(queuedNotesAtom, {});
