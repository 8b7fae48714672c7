/** The trim the teacher typed, checked as the server checks it (seconds; at least one second kept). */
export type Trim = { start: number; end: number };

export const MIN_KEPT_SECONDS = 1;

/** Why a trim cannot be saved, or null when it can. */
export function trimProblem(trim: Trim, durationSeconds: number): 'order' | 'range' | 'tooShort' | null {
  if (!Number.isFinite(trim.start) || !Number.isFinite(trim.end)) return 'range';
  if (trim.start < 0 || trim.end > durationSeconds + 1) return 'range';
  if (trim.start >= trim.end) return 'order';
  if (trim.end - trim.start < MIN_KEPT_SECONDS) return 'tooShort';
  return null;
}

/** What Save sends: nothing when the whole recording is kept (no re-transcode). */
export function trimToSend(trim: Trim, durationSeconds: number): Trim | null {
  if (trim.start <= 0 && trim.end >= durationSeconds) return null;
  return { start: Math.max(0, trim.start), end: Math.min(trim.end, durationSeconds + 1) };
}

/** Recorded time as the clock shows it: m:ss, or h:mm:ss from an hour. */
export function clockOf(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
