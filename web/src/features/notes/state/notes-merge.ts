import type { NotesJson } from '@contract/courses';

/** Notes written offline for one class: the text, the server's `updatedAt` it was started from, when it was written. */
export type QueuedNotes = { text: string; base: string | null; at: number };

/** What to send: the offline text, or both texts when the server's changed since (never an empty overwrite). */
export function mergedNotes(queued: QueuedNotes, server: NotesJson): string {
  const serverChanged = server.updatedAt !== null && server.updatedAt !== queued.base && server.notes !== queued.text;
  if (!serverChanged || server.notes.trim() === '') return queued.text;
  if (queued.text.trim() === '' || server.notes.includes(queued.text)) return server.notes;
  const when = new Date(queued.at).toLocaleString();
  return `${server.notes}\n\n— Written offline on ${when} —\n${queued.text}`;
}
