import { ApiError, answer, api } from '@api/client';
import type { CoverageJson } from '@contract/insight';
import { currentUserId, readPersonalRecord } from '@lib/person';
import { readToken } from '@lib/token-cookie';
import { addRange, MAX_RANGES_PER_REPORT, type PlayedRange } from './coverage';

/**
 * Sending what the player really played (`POST /api/lectures/{id}/coverage`), and keeping what was played offline
 * (a saved lecture, or the network gone) on this device until the connection is back. The queue lives in
 * localStorage under a `classroom.` key per person, so sign-out forgets it with everything else (lib/session.ts).
 */
export type CoverageReport = { ranges: PlayedRange[]; rate: number };
/** One lecture's ranges played offline, merged; `rate` the fastest used. */
type Queued = CoverageReport & { at: number };

const queueKey = (userId: string) => `classroom.coverage.${userId}`;
const coverageUrl = (lectureId: string) => `/api/lectures/${encodeURIComponent(lectureId)}/coverage`;

function readQueue(userId: string) {
  return readPersonalRecord<Queued>(queueKey(userId));
}

/** Keeps a report on this device until it can be sent (merged with what the lecture already has waiting). */
export function queueCoverage(lectureId: string, report: CoverageReport) {
  const userId = currentUserId();
  if (!userId) return;
  try {
    const queue = readQueue(userId);
    const before = queue[lectureId];
    let ranges = before?.ranges ?? [];
    for (const range of report.ranges) ranges = addRange(ranges, range);
    queue[lectureId] = { ranges, rate: Math.max(before?.rate ?? 0, report.rate), at: before?.at ?? Date.now() };
    localStorage.setItem(queueKey(userId), JSON.stringify(queue));
  } catch {
    // Storage full or blocked: this much coverage is lost, the video plays on.
  }
}

/** Whether reports wait on this device to be sent. */
export const hasQueuedCoverage = () => {
  const userId = currentUserId();
  return !!userId && Object.keys(readQueue(userId)).length > 0;
};

/**
 * Sends a report now; answers the server's coverage (undefined for a teacher's 204, or when it was queued). Offline,
 * or when the server cannot be reached, the report is queued and sent by `flushCoverage` later.
 */
export async function sendCoverage(lectureId: string, report: CoverageReport): Promise<CoverageJson | undefined> {
  if (!navigator.onLine) {
    queueCoverage(lectureId, report);
    return undefined;
  }
  try {
    return await answer(api.lectures[':id'].coverage.$post({ param: { id: lectureId }, json: report }));
  } catch (error) {
    // Not reached (the network went): kept for later. Refused (gone from the class, a bad range): dropped.
    if (error instanceof ApiError && error.status === 0) queueCoverage(lectureId, report);
    return undefined;
  }
}

/**
 * The last report as the page goes away (pagehide, hidden tab): `navigator.sendBeacon` survives the page, carrying
 * the cookie (same-site, so the server's cross-site check lets it in). Where the beacon is refused (too large, or a
 * browser that will not queue it), a keepalive fetch with the bearer header; offline, the queue.
 */
export function beaconCoverage(lectureId: string, report: CoverageReport) {
  if (!navigator.onLine) {
    queueCoverage(lectureId, report);
    return;
  }
  const body = JSON.stringify(report);
  let sent = false;
  try {
    sent = navigator.sendBeacon?.(coverageUrl(lectureId), new Blob([body], { type: 'application/json' })) ?? false;
  } catch {
    sent = false;
  }
  if (sent) return;
  const token = readToken();
  fetch(coverageUrl(lectureId), {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  }).catch(() => queueCoverage(lectureId, report));
}

let flushing: Promise<void> | undefined;

/** Sends every lecture's coverage played offline (`offline: true`); each leaves the queue once the server has it. */
export function flushCoverage(): Promise<void> {
  flushing ??= (async () => {
    const userId = currentUserId();
    if (!userId) return;
    for (const [lectureId, queued] of Object.entries(readQueue(userId))) {
      try {
        for (let i = 0; i < queued.ranges.length; i += MAX_RANGES_PER_REPORT) {
          const ranges = queued.ranges.slice(i, i + MAX_RANGES_PER_REPORT);
          await answer(
            api.lectures[':id'].coverage.$post({
              param: { id: lectureId },
              json: { ranges, rate: queued.rate, offline: true },
            }),
          );
        }
      } catch (error) {
        // The network is still away: try again later. Refused (gone from the class): it leaves the queue.
        if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return;
      }
      const queue = readQueue(userId);
      // Played offline again while this was sent: what came since stays queued.
      if (JSON.stringify(queue[lectureId]) === JSON.stringify(queued)) {
        delete queue[lectureId];
      }
      try {
        localStorage.setItem(queueKey(userId), JSON.stringify(queue));
      } catch {}
    }
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}
