import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import {
  type Chapter,
  chapterProblems,
  chaptersFromDescription,
  chaptersOfLecture,
  type LectureChaptersJson,
  lectureChaptersJson,
  storedChapters,
} from '../contract/chapters';
import { LIMITS } from '../contract/limits';
import type { Db } from '../db/client';
import { updateLecture, videoById } from '../db/queries/lectures';
import type { Lecture } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { badRequest } from '../errors';
import { answers } from '../http/openapi';
import { plainText } from '../contract/text';
import { idParam, validate } from '../http/validation';

/** A lecture's description: free text over several lines; its timed lines are chapters (src/contract/chapters.ts). */
export const descriptionField = plainText({
  required: 'The description must be text.',
  tooShort: 'The description must be text.',
  tooLong: `A description can be at most ${LIMITS.descriptionMax} characters.`,
  min: 0,
  max: LIMITS.descriptionMax,
  hidden: 'The description contains hidden characters. Please type it again.',
  multiline: true,
});

const chapterTitle = plainText({
  required: 'Please give the chapter a title.',
  tooShort: 'Please give the chapter a title.',
  tooLong: `A chapter title can be at most ${LIMITS.chapterTitleMax} characters.`,
  min: 1,
  max: LIMITS.chapterTitleMax,
  hidden: 'The chapter title contains hidden characters. Please type it again.',
});

/** The editor's list: each chapter checked, then the list against the rules (order, first at 0:00, length). */
const chaptersBody = z.object({
  chapters: z
    .array(
      z.object({
        seconds: z
          .number({ error: 'Give the chapter start in seconds.' })
          .min(0, 'A chapter cannot start before 0:00.')
          .max(24 * 3600, 'A chapter must start within 24 hours.')
          .transform((seconds) => Math.round(seconds * 1000) / 1000),
        title: chapterTitle,
      }),
      { error: 'Send the chapters as a list, or null to use the description.' },
    )
    .max(LIMITS.chaptersMax, `A lecture can have at most ${LIMITS.chaptersMax} chapters.`)
    .superRefine((chapters, context) => {
      for (const message of chapterProblems(chapters, undefined)) context.addIssue({ code: 'custom', message });
    })
    .nullable(),
});

/** The lecture's video length in seconds, when it has a video. */
async function durationOf(db: Db, lecture: Pick<Lecture, 'videoId'>) {
  const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
  return video ? video.durationMs / 1000 : undefined;
}

/** Refuses a description whose timed lines break the chapter rules (400 `bad_chapters`, with every problem). */
export async function checkDescription(db: Db, description: string, videoId: string | null) {
  const { problems } = chaptersFromDescription(description, await durationOf(db, { videoId }));
  if (problems.length > 0) {
    throw badRequest('bad_chapters', `Chapters in the description: ${problems[0]}`, {
      fields: { description: problems[0] },
      problems,
    });
  }
}

/** What the chapter routes answer: the chapters the player shows, where they come from, and the editor's list. */
function chaptersJson(lecture: Lecture, durationSeconds: number | undefined): LectureChaptersJson {
  const { chapters, source } = chaptersOfLecture(lecture, durationSeconds);
  return { chapters, source, editor: storedChapters(lecture.chapters) };
}

/**
 * A lecture's chapters: read by its class, set by its teacher in the chapter editor (an explicit list overrides the
 * description's timed lines; null goes back to them). Mounted inside the lectures routes; each route asks for a
 * signed-in user itself.
 */
export function chaptersRoutes(deps: AppDeps) {
  const { db } = deps;
  const signedIn = requireUser(deps);
  return new Hono<AppEnv>()
    .get(
      '/:id/chapters',
      answers({ 200: lectureChaptersJson }, { summary: "A lecture's chapters (class members)" }),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const { lecture } = await readableLecture(db, c.get('user'), c.req.valid('param').id);
        return c.json(chaptersJson(lecture, await durationOf(db, lecture)));
      },
    )
    .put(
      '/:id/chapters',
      answers(
        { 200: lectureChaptersJson },
        { summary: "Set a lecture's chapters in the editor (teacher); null falls back to the description's" },
      ),
      signedIn,
      validate('param', idParam),
      validate('json', chaptersBody),
      async (c) => {
        const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
        const list: Chapter[] | null = c.req.valid('json').chapters;
        const duration = await durationOf(db, lecture);
        if (list) {
          const problems = chapterProblems(list, duration);
          if (problems.length > 0) {
            throw badRequest('bad_chapters', problems[0] as string, { fields: { chapters: problems[0] }, problems });
          }
        }
        const updated = await updateLecture(db, lecture.id, { chapters: list ? JSON.stringify(list) : null });
        return c.json(chaptersJson(updated, duration));
      },
    );
}
