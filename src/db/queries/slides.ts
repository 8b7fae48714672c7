import { and, asc, eq } from 'drizzle-orm';
import { emit } from '../../events/events';
import type { Db } from '../client';
import { type Slide, slides } from '../schema';
import { transaction } from '../transaction';

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

/** The teacher's title (null removes it) and hiding of one slide. */
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
    await emit(tx, { type: 'slides-changed', videoId: slide.videoId, lectureId });
    return updated as Slide;
  });
}
