/**
 * Polls `check` until it answers something truthy, and answers that. Past the deadline it fails, naming what it
 * waited for and what it saw last, so a stuck wait reads as its cause rather than as a test timeout.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T> | T,
  options: { timeoutMs?: number; everyMs?: number; lastSeen?: () => string } = {},
): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) {
      const seen = options.lastSeen ? ` (last seen: ${options.lastSeen()})` : '';
      throw new Error(`Timed out after ${timeoutMs / 1000} s waiting for ${what}${seen}`);
    }
    await Bun.sleep(options.everyMs ?? 200);
  }
}

type VideoAnswer = { status: string; playable?: boolean; error?: string | null };

/**
 * Waits until a video (GET /api/videos/:id, read by `read`) is ready, or playable; a failed transcode fails at once
 * with its error, a stuck one at the deadline with its last status.
 */
export async function waitForVideo(
  what: string,
  read: () => Promise<VideoAnswer>,
  options: { until?: 'ready' | 'playable'; timeoutMs?: number; everyMs?: number } = {},
) {
  let last: VideoAnswer | undefined;
  return waitUntil(
    `${what} to be ${options.until ?? 'ready'}`,
    async () => {
      last = await read();
      if (last.status === 'failed') throw new Error(`${what} failed to process: ${last.error ?? 'no error given'}`);
      return (options.until === 'playable' ? last.playable : last.status === 'ready') ? last : undefined;
    },
    { timeoutMs: options.timeoutMs ?? 90_000, everyMs: options.everyMs, lastSeen: () => JSON.stringify(last) },
  );
}
