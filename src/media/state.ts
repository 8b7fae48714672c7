import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Video, videos } from '../db/schema';
import type { Plan } from './ladder';
import type { SourceInfo } from './probe';

/** A video's state changes only through these functions: queued → processing → ready | failed. */

export const MAX_ATTEMPTS = 3;
export const LEASE_MS = 60_000;

export function readPlan(video: Pick<Video, 'plan'>): Plan {
  return JSON.parse(video.plan) as Plan;
}

export function createQueuedVideo(
  db: Db,
  input: { id: string; ownerId: string; sourceName: string; sourceBytes: number; source: SourceInfo; plan: Plan },
): Video {
  return db
    .insert(videos)
    .values({
      id: input.id,
      ownerId: input.ownerId,
      status: 'queued',
      sourceName: input.sourceName,
      sourceBytes: input.sourceBytes,
      durationMs: input.source.durationMs,
      width: input.source.width,
      height: input.source.height,
      hasAudio: input.source.hasAudio,
      plan: JSON.stringify(input.plan),
    })
    .returning()
    .get();
}

/** Takes the oldest queued video for this worker, counting the attempt. */
export function claimNextVideo(db: Db, now = Date.now()): Video | undefined {
  return db.transaction(
    (tx) => {
      const next = tx
        .select({ id: videos.id })
        .from(videos)
        .where(eq(videos.status, 'queued'))
        .orderBy(videos.createdAt)
        .limit(1)
        .get();
      if (!next) return undefined;
      return tx
        .update(videos)
        .set({
          status: 'processing',
          attempts: sql`${videos.attempts} + 1`,
          progress: 0,
          etaSeconds: null,
          startedAt: now,
          firstPlayableAt: null,
          finishedAt: null,
          leaseUntil: now + LEASE_MS,
        })
        .where(and(eq(videos.id, next.id), eq(videos.status, 'queued')))
        .returning()
        .get();
    },
    { behavior: 'immediate' },
  );
}

export function reportProgress(db: Db, id: string, progress: number, etaSeconds: number | null, now = Date.now()) {
  db.update(videos)
    .set({ progress, etaSeconds, leaseUntil: now + LEASE_MS })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')))
    .run();
}

export function markPosterReady(db: Db, id: string) {
  db.update(videos).set({ hasPoster: true }).where(eq(videos.id, id)).run();
}

export function markFirstPlayable(db: Db, id: string, now = Date.now()) {
  db.update(videos)
    .set({ firstPlayableAt: now })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')))
    .run();
}

export function markReady(db: Db, id: string, plan: Plan, now = Date.now()) {
  db.update(videos)
    .set({
      status: 'ready',
      progress: 100,
      etaSeconds: 0,
      error: null,
      plan: JSON.stringify(plan),
      finishedAt: now,
      leaseUntil: null,
      firstPlayableAt: sql`coalesce(${videos.firstPlayableAt}, ${now})`,
    })
    .where(eq(videos.id, id))
    .run();
}

/** A failed run goes back to the queue until it has used its attempts; then it shows its reason. */
export function markAttemptFailed(db: Db, video: Pick<Video, 'id' | 'attempts'>, reason: string, now = Date.now()) {
  const final = video.attempts >= MAX_ATTEMPTS;
  db.update(videos)
    .set({
      status: final ? 'failed' : 'queued',
      error: reason,
      leaseUntil: null,
      progress: 0,
      etaSeconds: null,
      firstPlayableAt: null,
      finishedAt: final ? now : null,
    })
    .where(eq(videos.id, video.id))
    .run();
  return final ? 'failed' : 'queued';
}

/** A failure that no retry can fix (the source itself is unreadable). */
export function markFailed(db: Db, id: string, reason: string, now = Date.now()) {
  db.update(videos)
    .set({ status: 'failed', error: reason, leaseUntil: null, etaSeconds: null, finishedAt: now })
    .where(eq(videos.id, id))
    .run();
}

/** A run stopped by a shutdown goes back to the queue without using an attempt. */
export function requeueStopped(db: Db, id: string) {
  db.update(videos)
    .set({
      status: 'queued',
      attempts: sql`max(0, ${videos.attempts} - 1)`,
      leaseUntil: null,
      progress: 0,
      etaSeconds: null,
      firstPlayableAt: null,
    })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')))
    .run();
}

export function recordFfmpegPid(db: Db, id: string, pid: number | null) {
  db.update(videos).set({ ffmpegPid: pid }).where(eq(videos.id, id)).run();
}

/** At start: videos left processing by a crash or kill -9 are queued again (or failed, attempts spent). */
export function requeueInterrupted(db: Db, stopOrphan: (pid: number, videoId: string) => void = () => {}): number {
  for (const row of db
    .select({ id: videos.id, pid: videos.ffmpegPid })
    .from(videos)
    .where(eq(videos.status, 'processing'))
    .all()) {
    if (row.pid) stopOrphan(row.pid, row.id);
  }
  const requeued = db
    .update(videos)
    .set({ status: 'queued', leaseUntil: null, progress: 0, etaSeconds: null, firstPlayableAt: null, ffmpegPid: null })
    .where(and(eq(videos.status, 'processing'), sql`${videos.attempts} < ${MAX_ATTEMPTS}`))
    .returning({ id: videos.id })
    .all();
  db.update(videos)
    .set({ status: 'failed', error: 'Processing stopped too many times.', leaseUntil: null, ffmpegPid: null })
    .where(eq(videos.status, 'processing'))
    .run();
  return requeued.length;
}

/** The teacher's Retry: a failed video starts over with fresh attempts. */
export function retryFailed(db: Db, id: string): boolean {
  const row = db
    .update(videos)
    .set({ status: 'queued', attempts: 0, error: null, progress: 0, etaSeconds: null, finishedAt: null })
    .where(and(eq(videos.id, id), eq(videos.status, 'failed')))
    .returning({ id: videos.id })
    .get();
  return row !== undefined;
}
