import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { lectures, searchEntries, slides, videos } from '../db/schema';

/**
 * Slides in search: one `slide` entry per visible slide with words (its title first), for each lecture that shows
 * the video, at the slide's second. Written again whenever the slides, their titles or hiding, the index's switch or
 * the lecture's video change; an entry goes with its slide (cascade). An index switched off has no entries.
 */
export async function indexSlidesOfLecture(db: Db, lectureId: string) {
  await db.delete(searchEntries).where(and(eq(searchEntries.lectureId, lectureId), eq(searchEntries.kind, 'slide')));
  const [lecture] = await db
    .select({ courseId: lectures.courseId, videoId: lectures.videoId, slidesOff: videos.slidesOff })
    .from(lectures)
    .innerJoin(videos, eq(videos.id, lectures.videoId))
    .where(eq(lectures.id, lectureId))
    .limit(1);
  if (!lecture?.videoId || lecture.slidesOff) return;
  const shown = await db
    .select()
    .from(slides)
    .where(and(eq(slides.videoId, lecture.videoId), eq(slides.hidden, false)))
    .orderBy(asc(slides.seconds))
    .then((rows) => rows.filter((slide) => slide.text || slide.title));
  if (shown.length === 0) return;
  await db.insert(searchEntries).values(
    shown.map((slide) => ({
      courseId: lecture.courseId,
      lectureId,
      kind: 'slide' as const,
      slideId: slide.id,
      seconds: slide.seconds,
      text: slide.title ? `${slide.title}\n${slide.text}` : slide.text,
    })),
  );
}

/** Indexes the slides of a video for every lecture that shows it. */
export async function indexSlidesOfVideo(db: Db, videoId: string) {
  const shown = await db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videoId));
  for (const lecture of shown) await indexSlidesOfLecture(db, lecture.id);
}
