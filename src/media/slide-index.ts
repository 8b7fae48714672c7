import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type SlidesResult, slidesOfVideo } from '../db/queries/slides';
import { jobs, slides, videos } from '../db/schema';
import { transaction } from '../db/transaction';
import { emit } from '../events/events';
import { enqueueJob } from '../jobs/jobs';
import type { JobChange } from '../jobs/types';

/** After transcodes and mail: the slide index is never what keeps a lecture from playing. */
export const SLIDES_PRIORITY = 10;
export const SLIDES_MAX_ATTEMPTS = 2;

/**
 * Queues the slide detection of a video (in the caller's transaction: the transcode's `done`, a teacher's switch),
 * and shows its index as pending. A video whose index is off gets none.
 */
export async function enqueueSlides(tx: Db, videoId: string) {
  const [video] = await tx.select({ off: videos.slidesOff }).from(videos).where(eq(videos.id, videoId)).limit(1);
  if (!video || video.off) return false;
  await enqueueJob(
    tx,
    'slides',
    { videoId },
    { subjectId: videoId, priority: SLIDES_PRIORITY, maxAttempts: SLIDES_MAX_ATTEMPTS },
  );
  await tx.update(videos).set({ slidesState: 'pending' }).where(eq(videos.id, videoId));
  return true;
}

/**
 * The video's slide index follows its `slides` job, written in the job's own transaction (as the video's status
 * follows its transcode): queued or running → pending; done → ready or none, with the slides replaced (and indexed
 * for search, src/wiring.ts); failed → failed. A teacher's titles and hiding are kept for slides found again at the same second.
 */
export async function projectSlides(tx: Db, videoId: string, change: JobChange) {
  const row = eq(videos.id, videoId);
  switch (change.to) {
    case 'running':
    case 'queued':
      await tx.update(videos).set({ slidesState: 'pending' }).where(row);
      return;
    case 'failed':
      await tx.update(videos).set({ slidesState: 'failed' }).where(row);
      return;
    case 'cancelled':
      await tx.update(videos).set({ slidesState: null }).where(row);
      return;
    case 'done': {
      const result = change.result as SlidesResult;
      if (!result) {
        await tx.update(videos).set({ slidesState: null }).where(row);
        return;
      }
      const before = new Map((await slidesOfVideo(tx, videoId)).map((slide) => [slide.seconds.toFixed(2), slide]));
      await tx.delete(slides).where(eq(slides.videoId, videoId));
      if (result.slides.length) {
        await tx.insert(slides).values(
          result.slides.map((slide) => {
            const kept = before.get(slide.seconds.toFixed(2));
            return { ...slide, videoId, title: kept?.title ?? null, hidden: kept?.hidden ?? false };
          }),
        );
      }
      await tx
        .update(videos)
        .set({ slidesState: result.found ? 'ready' : 'none' })
        .where(row);
      await emit(tx, { type: 'slides-changed', videoId });
      return;
    }
  }
}

/**
 * Switches a video's slide index off or on (for the lecture that shows it). On again runs detection only when it
 * has no verdict yet (never run, or failed) and no `slides` job waits or runs; answers whether it queued one.
 */
export async function switchSlideIndex(db: Db, lectureId: string, videoId: string, enabled: boolean): Promise<boolean> {
  return transaction(db, async (tx) => {
    const [video] = await tx.update(videos).set({ slidesOff: !enabled }).where(eq(videos.id, videoId)).returning();
    let queued = false;
    if (enabled && video?.status === 'ready' && (video.slidesState === null || video.slidesState === 'failed')) {
      const [waiting] = await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.subjectId, videoId), eq(jobs.type, 'slides'), inArray(jobs.state, ['queued', 'running'])))
        .limit(1);
      if (!waiting) queued = await enqueueSlides(tx, videoId);
    }
    await emit(tx, { type: 'slides-changed', videoId, lectureId });
    return queued;
  });
}
