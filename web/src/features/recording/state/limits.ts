/** How long and how large a recording may grow, and how much room this browser has left for it. */

/** Said this long before the recording stops by itself. */
export const WARN_BEFORE_MS = 60_000;
/** Below this much free room in the browser the teacher is told; below the second, recording stops. */
export const LOW_ROOM_BYTES = 200 * 1024 * 1024;
export const STOP_ROOM_BYTES = 30 * 1024 * 1024;
/** Of the server's cap: warn at the first share, stop at the second (the last chunk must still fit). */
const WARN_SHARE = 0.9;
const STOP_SHARE = 0.97;

export type Limits = { maxRecordingMinutes: number; maxUploadBytes: number };

export type LimitCheck = {
  /** Stop now, and why. */
  stop: 'time' | 'size' | 'room' | null;
  /** Said while recording, and why. */
  warn: 'time' | 'size' | 'room' | null;
};

/** Where the recording stands against the time limit, the server's size cap and this browser's free room. */
export function checkLimits(
  limits: Limits,
  elapsedMs: number,
  recordedBytes: number,
  freeRoomBytes: number | null,
): LimitCheck {
  const maxMs = limits.maxRecordingMinutes * 60_000;
  if (elapsedMs >= maxMs) return { stop: 'time', warn: null };
  if (recordedBytes >= limits.maxUploadBytes * STOP_SHARE) return { stop: 'size', warn: null };
  if (freeRoomBytes !== null && freeRoomBytes < STOP_ROOM_BYTES) return { stop: 'room', warn: null };
  if (elapsedMs >= maxMs - WARN_BEFORE_MS) return { stop: null, warn: 'time' };
  if (recordedBytes >= limits.maxUploadBytes * WARN_SHARE) return { stop: null, warn: 'size' };
  if (freeRoomBytes !== null && freeRoomBytes < LOW_ROOM_BYTES) return { stop: null, warn: 'room' };
  return { stop: null, warn: null };
}

/** Free room the browser gives this site, or null when it does not say. */
export async function freeRoom(): Promise<number | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate?.quota) return null;
    return estimate.quota - (estimate.usage ?? 0);
  } catch {
    return null;
  }
}
