import { and, eq, exists, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { nowMs } from '../db/dialect';
import { downloads, jobs, type Video, videos } from '../db/schema';
import { transaction } from '../db/transaction';
import { emit } from '../events/events';
import { cancelJobs, enqueueJob } from '../jobs/jobs';
import type { JobChange } from '../jobs/types';
import type { Plan } from './ladder';
import type { SourceInfo } from './probe';

/**
 * A video's status is a projection of its transcode job: queued → processing → ready | failed | cancelled. It
 * changes only here, and (but for the upload that creates both) only through `projectVideo`, the listener of the
 * jobs module's `job-changed` event, inside the transaction that changes the job. Progress, the poster and "first
 * playable" are facts of the running attempt, written only while that attempt still holds the job's lease.
 */

export const MAX_ATTEMPTS = 3;

export function readPlan(video: Pick<Video, 'plan'>): Plan {
  return JSON.parse(video.plan) as Plan;
}

/** What a finished transcode hands to its projection. */
export type TranscodeResult = { plan: Plan };

/** The video row and its transcode job, in one transaction. */
export async function createQueuedVideo(
  db: Db,
  input: { id: string; ownerId: string; sourceName: string; sourceBytes: number; source: SourceInfo; plan: Plan },
): Promise<Video> {
  return transaction(db, async (tx) => {
    const [video] = await tx
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
      .returning();
    await enqueueJob(tx, 'transcode', { videoId: input.id }, { subjectId: input.id, maxAttempts: MAX_ATTEMPTS });
    return video as Video;
  });
}

export async function getVideo(db: Db, id: string) {
  const [video] = await db.select().from(videos).where(eq(videos.id, id)).limit(1);
  return video;
}

/** The video's side of a change of its transcode job; `tx` is the job's transaction. */
export async function projectVideo(tx: Db, id: string, change: JobChange) {
  const now = nowMs(tx);
  const row = eq(videos.id, id);
  const restart = { progress: 0, etaSeconds: null, firstPlayableAt: null };
  switch (change.to) {
    case 'running':
      // A new attempt or a take-back: either way the ladder starts over (and offline copies of the old files go).
      await tx.delete(downloads).where(eq(downloads.videoId, id));
      await tx
        .update(videos)
        .set({ status: 'processing', attempts: change.job.attempts, ...restart, startedAt: now, finishedAt: null })
        .where(row);
      return;
    case 'done': {
      const result = change.result as TranscodeResult | undefined;
      await tx
        .update(videos)
        .set({
          status: 'ready',
          progress: 100,
          etaSeconds: 0,
          error: null,
          ...(result?.plan ? { plan: JSON.stringify(result.plan) } : {}),
          finishedAt: now,
          firstPlayableAt: sql`coalesce(${videos.firstPlayableAt}, ${now})`,
        })
        .where(row);
      // What follows (students told, the slide index) is wired in src/wiring.ts.
      await emit(tx, { type: 'video-ready', videoId: id });
      return;
    }
    case 'queued':
      // A failed attempt waits for the next (its reason shown meanwhile), or a shutdown put it back.
      await tx
        .update(videos)
        .set({ status: 'queued', ...restart, ...(change.error ? { error: change.error } : {}), finishedAt: null })
        .where(row);
      return;
    case 'failed':
      await tx
        .update(videos)
        .set({ status: 'failed', error: change.error, ...restart, finishedAt: now })
        .where(row);
      return;
    case 'cancelled':
      await tx
        .update(videos)
        .set({ status: 'cancelled', error: change.reason, ...restart, finishedAt: now })
        .where(row);
      return;
  }
}

/** The running attempt holding `lease` still owns the video's job (a worker that lost it writes nothing). */
const heldBy = (db: Db, id: string, lease: string) =>
  and(
    eq(videos.id, id),
    eq(videos.status, 'processing'),
    exists(
      db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.subjectId, id), eq(jobs.state, 'running'), eq(jobs.leaseOwner, lease))),
    ),
  );

export async function reportProgress(db: Db, id: string, lease: string, progress: number, etaSeconds: number | null) {
  await db
    .update(videos)
    .set({ progress, etaSeconds })
    .where(heldBy(db, id, lease));
}

export async function markPosterReady(db: Db, id: string, lease: string) {
  await db
    .update(videos)
    .set({ hasPoster: true })
    .where(heldBy(db, id, lease));
}

export async function markFirstPlayable(db: Db, id: string, lease: string) {
  await db
    .update(videos)
    .set({ firstPlayableAt: nowMs(db) })
    .where(heldBy(db, id, lease));
}

/**
 * The teacher's (or an administrator's) Retry: a failed or cancelled video starts over with fresh attempts and a
 * new job, in one transaction. False when the video is in neither state (nothing changes).
 */
export async function retryFailed(db: Db, id: string): Promise<boolean> {
  return transaction(db, async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({ status: 'queued', attempts: 0, error: null, progress: 0, etaSeconds: null, finishedAt: null })
      .where(and(eq(videos.id, id), inArray(videos.status, ['failed', 'cancelled'])))
      .returning({ id: videos.id });
    if (!row) return false;
    await tx.delete(jobs).where(and(eq(jobs.subjectId, id), inArray(jobs.state, ['failed', 'cancelled'])));
    await enqueueJob(tx, 'transcode', { videoId: id }, { subjectId: id, maxAttempts: MAX_ATTEMPTS });
    return true;
  });
}

/** A trim in ms of the original; null keeps all of it. */
export type TrimMs = { startMs: number; endMs: number } | null;

/**
 * The owner's trim: stored on the video and its transcode started over from the original, in one transaction. The
 * job at work is cancelled (its lease goes, so it publishes nothing more and is never marked done); when one was
 * running, the new job waits out a lease, by which time the old worker heard of it at a heartbeat and stopped writing.
 */
export async function trimVideo(db: Db, video: Video, trim: TrimMs, leaseMs: number) {
  const sourceDurationMs = video.sourceDurationMs ?? video.durationMs;
  await transaction(db, async (tx) => {
    const running = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.subjectId, video.id), eq(jobs.type, 'transcode'), eq(jobs.state, 'running')));
    await cancelJobs(tx, video.id, 'The video is being trimmed.');
    await tx
      .update(videos)
      .set({
        status: 'queued',
        attempts: 0,
        error: null,
        progress: 0,
        etaSeconds: null,
        startedAt: null,
        finishedAt: null,
        firstPlayableAt: null,
        hasPoster: false,
        trimStartMs: trim?.startMs ?? null,
        trimEndMs: trim?.endMs ?? null,
        durationMs: trim ? trim.endMs - trim.startMs : sourceDurationMs,
        sourceDurationMs,
      })
      .where(eq(videos.id, video.id));
    await tx.delete(jobs).where(and(eq(jobs.subjectId, video.id), inArray(jobs.state, ['failed', 'cancelled'])));
    await enqueueJob(
      tx,
      'transcode',
      { videoId: video.id },
      { subjectId: video.id, maxAttempts: MAX_ATTEMPTS, delayMs: running.length > 0 ? leaseMs : 0 },
    );
  });
}
