import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, type Video, videos } from '../db/schema';
import { transaction } from '../db/transaction';
import { enqueueJob } from '../jobs/jobs';
import type { Plan } from './ladder';
import type { SourceInfo } from './probe';

/** A video's state changes only through these functions: queued → processing → ready | failed. */

export const MAX_ATTEMPTS = 3;

export function readPlan(video: Pick<Video, 'plan'>): Plan {
  return JSON.parse(video.plan) as Plan;
}

/** The video row and its transcode job, in one transaction. */
export async function createQueuedVideo(
  db: Db,
  input: { id: string; ownerId: string; sourceName: string; sourceBytes: number; source: SourceInfo; plan: Plan },
): Promise<Video> {
  return transaction(db, async (tx) => {
    const video = (await tx
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
      .get()) as Video;
    await enqueueJob(tx, 'transcode', { videoId: video.id }, { subjectId: video.id, maxAttempts: MAX_ATTEMPTS });
    return video;
  });
}

export async function getVideo(db: Db, id: string) {
  return db.select().from(videos).where(eq(videos.id, id)).get();
}

/** A worker took the job up: this is attempt `attempts`. */
export async function markProcessing(db: Db, id: string, attempts: number, now = Date.now()) {
  await db
    .update(videos)
    .set({
      status: 'processing',
      attempts,
      progress: 0,
      etaSeconds: null,
      startedAt: now,
      firstPlayableAt: null,
      finishedAt: null,
    })
    .where(eq(videos.id, id));
}

export async function reportProgress(db: Db, id: string, progress: number, etaSeconds: number | null) {
  await db
    .update(videos)
    .set({ progress, etaSeconds })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')));
}

export async function markPosterReady(db: Db, id: string) {
  await db.update(videos).set({ hasPoster: true }).where(eq(videos.id, id));
}

export async function markFirstPlayable(db: Db, id: string, now = Date.now()) {
  await db
    .update(videos)
    .set({ firstPlayableAt: now })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')));
}

export async function markReady(db: Db, id: string, plan: Plan, now = Date.now()) {
  await db
    .update(videos)
    .set({
      status: 'ready',
      progress: 100,
      etaSeconds: 0,
      error: null,
      plan: JSON.stringify(plan),
      finishedAt: now,
      ffmpegPid: null,
      firstPlayableAt: sql`coalesce(${videos.firstPlayableAt}, ${now})`,
    })
    .where(eq(videos.id, id));
}

/** A failed run waits for its next attempt, or shows its reason when the attempts are spent. */
export async function markAttemptFailed(db: Db, id: string, reason: string, final: boolean, now = Date.now()) {
  await db
    .update(videos)
    .set({
      status: final ? 'failed' : 'queued',
      error: reason,
      progress: 0,
      etaSeconds: null,
      firstPlayableAt: null,
      ffmpegPid: null,
      finishedAt: final ? now : null,
    })
    .where(eq(videos.id, id));
}

/** A run stopped by a shutdown waits in the queue again. */
export async function markStopped(db: Db, id: string) {
  await db
    .update(videos)
    .set({ status: 'queued', progress: 0, etaSeconds: null, firstPlayableAt: null, ffmpegPid: null })
    .where(and(eq(videos.id, id), eq(videos.status, 'processing')));
}

export async function recordFfmpegPid(db: Db, id: string, pid: number | null) {
  await db.update(videos).set({ ffmpegPid: pid }).where(eq(videos.id, id));
}

/** The teacher's Retry: a failed video starts over with fresh attempts and a new job. */
export async function retryFailed(db: Db, id: string): Promise<boolean> {
  return transaction(db, async (tx) => {
    const row = await tx
      .update(videos)
      .set({ status: 'queued', attempts: 0, error: null, progress: 0, etaSeconds: null, finishedAt: null })
      .where(and(eq(videos.id, id), eq(videos.status, 'failed')))
      .returning({ id: videos.id })
      .get();
    if (!row) return false;
    await tx.delete(jobs).where(and(eq(jobs.subjectId, id), eq(jobs.state, 'failed')));
    await enqueueJob(tx, 'transcode', { videoId: id }, { subjectId: id, maxAttempts: MAX_ATTEMPTS });
    return true;
  });
}
