/**
 * Chapters of a lecture (docs/watching.md, "Chapters"): written as timed lines in its description
 * (`0:00 Introduction`, `12:30 Worked example`, `1:02:03 Summary`) or set as a list in the chapter editor. One rule
 * set for both sources: the rules are in `chapter-rules.ts` (pure and zod-free, so the web can show the same problems
 * while the teacher types), the schemas of the answers and of the editor's list here.
 */
import { z } from 'zod';
import type { Chapter, ChapterSource } from './chapter-rules';
import { LIMITS } from './limits';
import { plainText } from './text';

export * from './chapter-rules';

/** One chapter: where it starts (seconds from the start of the video) and its title. */
export const chapterJson = z.object({ seconds: z.number(), title: z.string() }) satisfies z.ZodType<Chapter>;
/** Where a lecture's chapters come from: the editor's list, its description's timed lines, or nowhere. */
export const chapterSourceJson = z.enum(['editor', 'description', 'none']) satisfies z.ZodType<ChapterSource>;
/**
 * What `GET`/`PUT /api/lectures/{id}/chapters` answer: the chapters the player shows, where they come from, and the
 * editor's own list (null when the teacher set none, so the description's timed lines are used).
 */
export const lectureChaptersJson = z.object({
  chapters: z.array(chapterJson),
  source: chapterSourceJson,
  editor: z.array(chapterJson).nullable(),
});
export type LectureChaptersJson = z.infer<typeof lectureChaptersJson>;

/** A lecture's description: free text over several lines; its timed lines are chapters (src/contract/chapters.ts). */
export const descriptionField = plainText({
  required: 'fields.descriptionText',
  tooShort: 'fields.descriptionText',
  tooLong: 'fields.descriptionTooLong',
  min: 0,
  max: LIMITS.descriptionMax,
  hidden: 'fields.descriptionHidden',
  multiline: true,
});

export const chapterTitle = plainText({
  required: 'fields.chapterTitleRequired',
  tooShort: 'fields.chapterTitleRequired',
  tooLong: 'fields.chapterTitleTooLong',
  min: 1,
  max: LIMITS.chapterTitleMax,
  hidden: 'fields.chapterTitleHidden',
});

/** `PUT /api/lectures/{id}/chapters`, the editor's list: each chapter checked, then the list against the rules (order, first at 0:00, length). */
export const chaptersBody = z.object({
  chapters: z
    .array(
      z.object({
        seconds: z
          .number({ error: 'fields.chapterStartSeconds' })
          .min(0, 'fields.chapterStartNegative')
          .max(24 * 3600, 'fields.chapterStartTooLate')
          .transform((seconds) => Math.round(seconds * 1000) / 1000),
        title: chapterTitle,
      }),
      { error: 'fields.chaptersList' },
    )
    .max(LIMITS.chaptersMax, 'fields.tooManyChapters')
    // The chapter rules (order, 0:00, length) are checked by the route, with the video's length, in the person's
    // language (src/routes/chapters.ts): a schema's message has no values to name the chapter with.
    .nullable(),
});
