import type { NotesJson } from '@contract/courses';
import { formatLongDate } from '@lib/format';
import { t } from '@lib/i18n';

/** Notes written offline for one class: the text, the server's `updatedAt` it was started from, when it was written. */
export type QueuedNotes = { text: string; base: string | null; at: number };

/** What to send: the offline text, or both texts when the server's changed since (never an empty overwrite). */
export function mergedNotes(queued: QueuedNotes, server: NotesJson): string {
  const serverChanged = server.updatedAt !== null && server.updatedAt !== queued.base && server.notes !== queued.text;
  if (!serverChanged || server.notes.trim() === '') return queued.text;
  if (queued.text.trim() === '' || server.notes.includes(queued.text)) return server.notes;
  // The dated line is part of the notes from then on: in the language on screen when they were sent.
  const when = formatLongDate(new Date(queued.at).toISOString());
  return `${server.notes}\n\n${t('notes.writtenOffline', { when })}\n${queued.text}`;
}
