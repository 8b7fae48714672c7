import { and, asc, eq, inArray } from 'drizzle-orm';
import { enqueueJob } from '../../jobs/jobs';
import type { JobChange } from '../../jobs/types';
import { indexSlidesOfLecture, indexSlidesOfVideo } from '../../search/slides';
import type { Db } from '../client';
import { jobs, type Slide, slides, videos } from '../schema';
import { transaction } from '../transaction';

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

/** One slide as detection made it (its id names its thumbnail in storage). */
export type DetectedSlide = { id: string; seconds: number; frameSeconds: number; text: string };

/** What a finished `slides` job hands to its projection: nothing when the video went away or is not ready. */
export type SlidesResult = { found: boolean; slides: DetectedSlide[] } | undefined;

/** The slides of a video in time order (hidden ones too: the caller decides who sees them). */
export async function slidesOfVideo(db: Db, videoId: string): Promise<Slide[]> {
  return db.select().from(slides).where(eq(slides.videoId, videoId)).orderBy(asc(slides.seconds));
}

export async function slideOfVideo(db: Db, videoId: string, slideId: string): Promise<Slide | undefined> {
  const [slide] = await db
    .select()
    .from(slides)
    .where(and(eq(slides.id, slideId), eq(slides.videoId, videoId)))
    .limit(1);
  return slide;
}

/**
 * The video's slide index follows its `slides` job, written in the job's own transaction (as the video's status
 * follows its transcode): queued or running → pending; done → ready or none, with the slides replaced and indexed
 * for search; failed → failed. A teacher's titles and hiding are kept for slides found again at the same second.
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
      await indexSlidesOfVideo(tx, videoId);
      return;
    }
  }
}

/** The teacher's title (null removes it) and hiding of one slide, and the lecture's search entries again. */
export async function changeSlide(
  db: Db,
  lectureId: string,
  slide: Slide,
  change: { title?: string | null; hidden?: boolean },
): Promise<Slide> {
  return transaction(db, async (tx) => {
    const [updated] = await tx
      .update(slides)
      .set({
        ...(change.title !== undefined ? { title: change.title || null } : {}),
        ...(change.hidden !== undefined ? { hidden: change.hidden } : {}),
      })
      .where(eq(slides.id, slide.id))
      .returning();
    await indexSlidesOfLecture(tx, lectureId);
    return updated as Slide;
  });
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
    await indexSlidesOfLecture(tx, lectureId);
    return queued;
  });
}
