import { Hono } from 'hono';
import { readableLecture, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import {
  type Chapter,
  chapterProblems,
  chaptersBody,
  chaptersFromDescription,
  chaptersOfLecture,
  type LectureChaptersJson,
  lectureChaptersJson,
  storedChapters,
} from '../contract/chapters';
import type { Locale } from '../contract/locales';
import type { Db } from '../db/client';
import { updateLecture, videoById } from '../db/queries/lectures';
import type { Lecture } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { badRequest } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfRequest, translate } from '../i18n/translate';

/** The lecture's video length in seconds, when it has a video. */
async function durationOf(db: Db, lecture: Pick<Lecture, 'videoId'>) {
  const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
  return video ? video.durationMs / 1000 : undefined;
}

/** Refuses a description whose timed lines break the chapter rules (400 `bad_chapters`, with every problem). */
export async function checkDescription(db: Db, description: string, videoId: string | null, locale: Locale) {
  const found = chaptersFromDescription(description, await durationOf(db, { videoId })).problems;
  if (found.length > 0) {
    const problems = found.map((problem) => translate(locale, problem.key, problem.values));
    throw badRequest(
      'bad_chapters',
      'errors.badChaptersInDescription',
      { fields: { description: problems[0] }, problems },
      { problem: problems[0] ?? '' },
    );
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
          const locale = localeOfRequest(c);
          const problems = chapterProblems(list, duration).map((problem) =>
            translate(locale, problem.key, problem.values),
          );
          if (problems.length > 0) {
            throw badRequest(
              'bad_chapters',
              'errors.badChapterList',
              { fields: { chapters: problems[0] }, problems },
              { problem: problems[0] ?? '' },
            );
          }
        }
        const updated = await updateLecture(db, lecture.id, { chapters: list ? JSON.stringify(list) : null });
        return c.json(chaptersJson(updated, duration));
      },
    );
}
