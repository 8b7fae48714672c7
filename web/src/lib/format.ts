/** m:ss (or h:mm:ss) for player times and durations. */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** "about 2 min left", "less than a minute left". */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min left`;
}

/** What a student reads of a video in processing: "Processing…, ready in about 2 min" (no percent, no jargon). */
export function processingForStudents(etaSeconds: number | null): string {
  if (etaSeconds === null || !Number.isFinite(etaSeconds)) return 'Processing…';
  if (etaSeconds < 60) return 'Processing…, ready in less than a minute';
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 60) return `Processing…, ready in about ${minutes} min`;
  return `Processing…, ready in about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A phrase as a sentence: a full stop, unless it already ends in one or an ellipsis ("Processing…" stays). */
export const asSentence = (text: string) => (/[.…!?]$/.test(text) ? text : `${text}.`);

/** A long date with hours and minutes, e.g. "November 22, 2026 at 10:05 AM". */
export function formatLongDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** "1.2 GB", "340 MB", "12 KB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`;
  return `${Math.max(0, Math.round(bytes / 1024))} KB`;
}

/** "just now", "2 min ago", "3 h ago", "yesterday", then the date. */
export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 2 * 86_400) return 'yesterday';
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)} days ago`;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "12:34" or "1:02:03" in a text, as seconds; the pattern finds them. */
export const TIME_IN_TEXT = /\b(?:(\d{1,2}):)?(\d{1,2}):([0-5]\d)\b/g;
export const secondsOf = (match: RegExpMatchArray) =>
  Number(match[1] ?? 0) * 3600 + Number(match[2]) * 60 + Number(match[3]);

/** A count with its noun in the right number: "1 student", "2 students", "0 classes" (give `many` when not +s). */
export const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
