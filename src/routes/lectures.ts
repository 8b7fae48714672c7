import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse, readableLecture, taughtCourse, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { descriptionField } from '../contract/chapters';
import { dueAtField } from '../contract/insight';
import { lectureJson, toLectureJson } from '../contract/lectures';
import { LIMITS } from '../contract/limits';
import { topicName } from '../contract/text';
import { messageJson } from '../contract/users';
import { videoIdFromLink } from '../contract/videos';
import type { Db } from '../db/client';
import { rebuildCourseCoverage } from '../db/queries/insight';
import {
  createLecture,
  deleteLecture,
  lecturesOfCourse,
  lectureViews,
  updateLecture,
  videoById,
  videoOwner,
} from '../db/queries/lectures';
import type { Lecture, User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { badRequest } from '../errors';
import { answers } from '../http/openapi';
import { idParam, idSchema, validate } from '../http/validation';
import { localeOfRequest } from '../i18n/translate';
import { deleteUnreferencedVideos } from '../media/videos';
import { captionsRoutes } from './captions';
import { chaptersRoutes, checkDescription } from './chapters';
import { commentsRoutes } from './comments';
import { downloadsRoutes } from './downloads';
import { coverageRoutes } from './insight';
import { progressRoutes } from './progress';
import { questionRoutes } from './questions';
import { reactionsRoutes } from './reactions';
import { slidesRoutes } from './slides';

const nameOfTopic = topicName;
const videoLink = z.string().max(LIMITS.videoLinkMax, 'fields.videoLinkTooLong').nullable();

const description = descriptionField.optional();
const createBody = z.object({ courseId: idSchema, nameOfTopic, videoLink: videoLink.optional(), description });
const updateBody = z.object({
  nameOfTopic: nameOfTopic.optional(),
  videoLink: videoLink.optional(),
  description,
  /** "Watch by" (beyond the spec): an ISO time, or null to clear it. */
  dueAt: dueAtField.optional(),
  /** "No skipping ahead" for its students (docs/teaching.md, "Questions inside the video"). */
  noSkip: z.boolean().optional(),
});
const courseParam = z.object({ courseId: idSchema });

/** The video a videoLink names, if the teacher uploaded it; null clears the video. */
async function videoForLink(db: Db, teacher: User, link: string | null): Promise<string | null> {
  if (link === null || link === '') return null;
  const id = videoIdFromLink(link);
  const video = id ? await videoOwner(db, id) : undefined;
  if (!video || video.ownerId !== teacher.id) {
    throw badRequest('invalid_video_link', 'errors.videoLinkNotYours', {
      fields: { videoLink: 'fields.notYourUpload' },
    });
  }
  return video.id;
}

/** Whether the lecture's video finished processing (what makes its videoLink non-null). */
async function videoIsReady(db: Db, videoId: string | null) {
  if (!videoId) return true;
  const video = await videoById(db, videoId);
  return video ? video.status === 'ready' : true;
}

/** Lectures as one user sees them, as the API answers them. */
async function lecturesAsSeenBy(db: Db, user: Pick<User, 'id'>, rows: Lecture[]) {
  const views = await lectureViews(db, user, rows);
  return views.map((view) => toLectureJson(view.lecture, view.video, view.mine, view.captions));
}

export function lecturesRoutes(deps: AppDeps) {
  const { db } = deps;
  const one = async (user: User, lecture: Lecture) => (await lecturesAsSeenBy(db, user, [lecture]))[0];

  return (
    new Hono<AppEnv>()
      // Likes and views, comments, progress, captions, coverage and questions are lectures' sub-resources; each route
      // of theirs asks for a signed-in user itself. They come before the `use` below, which then never runs for them
      // (their handler answers first): one session lookup per request.
      .route('/', reactionsRoutes(deps))
      .route('/', captionsRoutes(deps))
      .route('/', slidesRoutes(deps))
      .route('/', chaptersRoutes(deps))
      .route('/', downloadsRoutes(deps))
      .route('/', commentsRoutes(deps))
      .route('/', progressRoutes(deps))
      .route('/', coverageRoutes(deps))
      .route('/', questionRoutes(deps))
      .use(requireUser(deps))

      .get('/course/:courseId', answers({ 200: z.array(lectureJson) }), validate('param', courseParam), async (c) => {
        const { course } = await readableCourse(db, c.get('user'), c.req.valid('param').courseId);
        const rows = await lecturesOfCourse(db, course.id);
        return c.json(await lecturesAsSeenBy(db, c.get('user'), rows));
      })

      .post('/', answers({ 201: lectureJson }), validate('json', createBody), async (c) => {
        const user = c.get('user');
        const body = c.req.valid('json');
        const course = await taughtCourse(db, user, body.courseId);
        const videoId = await videoForLink(db, user, body.videoLink ?? null);
        if (body.description) await checkDescription(db, body.description, videoId, localeOfRequest(c));
        // A video that is already ready gets its students told in the lecture's transaction (src/wiring.ts).
        const lecture = await createLecture(db, {
          courseId: course.id,
          nameOfTopic: body.nameOfTopic,
          videoId,
          description: body.description ?? '',
        });
        if (videoId) deps.jobs.wake();
        return c.json(await one(user, lecture), 201);
      })

      .get('/:id', answers({ 200: lectureJson }), validate('param', idParam), async (c) => {
        const { lecture } = await readableLecture(db, c.get('user'), c.req.valid('param').id);
        return c.json(await one(c.get('user'), lecture));
      })

      .patch(
        '/:id/update',
        answers({ 200: lectureJson }),
        validate('param', idParam),
        validate('json', updateBody),
        async (c) => {
          const user = c.get('user');
          const lecture = await taughtLecture(db, user, c.req.valid('param').id);
          const body = c.req.valid('json');
          // A client that sends back the `videoLink: null` it was shown while the video processes (or failed) means
          // "unchanged" (a rename must not drop an upload); an empty string removes the video.
          const unchanged =
            body.videoLink === undefined || (body.videoLink === null && !(await videoIsReady(db, lecture.videoId)));
          const videoId = unchanged ? lecture.videoId : await videoForLink(db, user, body.videoLink ?? null);
          if (body.description !== undefined) await checkDescription(db, body.description, videoId, localeOfRequest(c));
          const updated = await updateLecture(db, lecture.id, {
            nameOfTopic: body.nameOfTopic ?? lecture.nameOfTopic,
            ...(videoId !== lecture.videoId ? { videoId } : {}),
            ...(body.description !== undefined ? { description: body.description } : {}),
            // A new date may be reminded of again.
            ...(body.dueAt !== undefined
              ? { dueAt: body.dueAt === null ? null : Date.parse(body.dueAt), remindedAt: null }
              : {}),
            ...(body.noSkip !== undefined ? { noSkip: body.noSkip } : {}),
          });
          if (lecture.videoId !== videoId) await deleteUnreferencedVideos(deps, [lecture.videoId]);
          if (videoId && lecture.videoId !== videoId) deps.jobs.wake();
          return c.json(await one(user, updated));
        },
      )

      .delete('/:id', answers({ 200: messageJson }), validate('param', idParam), async (c) => {
        const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
        await deleteLecture(db, lecture.id);
        // Its coverage rows went with it: the class's totals are counted again without them.
        await rebuildCourseCoverage(db, lecture.courseId);
        await deleteUnreferencedVideos(deps, [lecture.videoId]);
        return c.json({ message: 'Lecture deleted' });
      })
  );
}
