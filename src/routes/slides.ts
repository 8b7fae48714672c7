import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { ID_CHARS } from '../contract/limits';
import {
  slideChange,
  slideIndexChange,
  slideIndexJson,
  slideIndexState,
  slideJson,
  toSlideJson,
} from '../contract/slides';
import { videoById } from '../db/queries/lectures';
import { changeSlide, slideOfVideo, slidesOfVideo } from '../db/queries/slides';
import type { AppDeps, AppEnv } from '../deps';
import { notFound, tooMany } from '../errors';
import { fileResponse } from '../http/file-response';
import { answers } from '../http/openapi';
import { idSchema, validate } from '../http/validation';
import { createRateLimiter } from '../lib/rate-limit';
import { switchSlideIndex } from '../media/slide-index';
import { slideThumbnailKey } from '../storage/keys';

const lectureParam = z.object({ id: idSchema });
const slideParam = z.object({ id: idSchema, slideId: idSchema });
const thumbnailParam = z.object({
  id: idSchema,
  file: z.string().regex(new RegExp(`^${ID_CHARS}\\.webp$`), 'fields.notSlideThumbnail'),
});
const slideNotFound = () => notFound('slide_not_found', 'errors.slideNotFound');

/** A teacher's titles, hidings and switches per minute: each writes the lecture's search entries again. */
export const SLIDE_CHANGES_PER_MINUTE = 60;

/**
 * A lecture's slide index (src/media/slides-job.ts makes it): the list and thumbnails for whoever may watch the
 * lecture, the teacher's title, hiding and switch. Mounted inside the lectures routes; every route asks for a
 * signed-in user itself. The index's state goes with the list in the `X-Slide-Index` header, so the list keeps the
 * shape clients read.
 */
export function slidesRoutes(deps: AppDeps) {
  const { db, storage } = deps;
  const signedIn = requireUser(deps);
  const changes = createRateLimiter(db, 'slide-changes', SLIDE_CHANGES_PER_MINUTE, 60_000);
  /** Counted once the teacher and the slide are known: a refused request writes nothing, not even a count. */
  const countChange = async (userId: string) => {
    const wait = await changes.hit(userId);
    if (wait > 0) throw tooMany('errors.tooManySlideChanges', wait, { count: wait });
  };
  return new Hono<AppEnv>()
    .get(
      '/:id/slides',
      answers(
        { 200: z.array(slideJson) },
        {
          summary: "A lecture's slides: [{ seconds, thumbnail, text, title }] (the teacher also gets id and hidden)",
          description:
            'Empty while the index is pending, when the video is not slides, or when the teacher switched it off. The header X-Slide-Index says which: pending, ready, none or off.',
        },
      ),
      signedIn,
      validate('param', lectureParam),
      async (c) => {
        const { lecture, membership } = await readableLecture(db, c.get('user'), c.req.valid('param').id);
        const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
        const state = slideIndexState(video) ?? 'none';
        const teacher = membership === 'teacher';
        c.header('X-Slide-Index', state);
        c.header('Cache-Control', 'private, no-cache');
        // The teacher sees the slides of an index they switched off (to switch it on again knowingly).
        if (!video || (state !== 'ready' && !(teacher && state === 'off'))) return c.json([]);
        const shown = (await slidesOfVideo(db, video.id)).filter((slide) => teacher || !slide.hidden);
        return c.json(shown.map((slide) => toSlideJson(lecture.id, slide, teacher)));
      },
    )

    .get(
      '/:id/slides/:file',
      answers(
        { 200: { media: 'image/webp', description: "The slide's thumbnail, 320 px wide." } },
        { summary: "A slide's thumbnail (WebP, 320 px wide)" },
      ),
      signedIn,
      validate('param', thumbnailParam),
      async (c) => {
        const { id, file } = c.req.valid('param');
        const { lecture, membership } = await readableLecture(db, c.get('user'), id);
        const slideId = file.slice(0, -'.webp'.length);
        const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
        const slide = video ? await slideOfVideo(db, video.id, slideId) : undefined;
        const teacher = membership === 'teacher';
        if (!video || !slide || (!teacher && (slide.hidden || video.slidesOff))) throw slideNotFound();
        const key = slideThumbnailKey(video.id, slide.id);
        const stored = await storage.stat(key);
        const response =
          stored &&
          (await fileResponse(c.req.raw, stored.size, (range) => storage.get(key, range), {
            'Content-Type': 'image/webp',
            // A thumbnail never changes (a new detection makes new slide ids).
            'Cache-Control': 'private, max-age=31536000, immutable',
          }));
        if (!response) throw slideNotFound();
        return response;
      },
    )

    .put(
      '/:id/slides/:slideId',
      answers(
        { 200: slideJson },
        { summary: 'Title a slide (a titled slide is a chapter) or hide a wrong mark; the teacher only' },
      ),
      signedIn,
      validate('param', slideParam),
      validate('json', slideChange),
      async (c) => {
        const { id, slideId } = c.req.valid('param');
        const lecture = await taughtLecture(db, c.get('user'), id);
        const slide = lecture.videoId ? await slideOfVideo(db, lecture.videoId, slideId) : undefined;
        if (!slide) throw slideNotFound();
        await countChange(c.get('user').id);
        const changed = await changeSlide(db, lecture.id, slide, c.req.valid('json'));
        return c.json(toSlideJson(lecture.id, changed, true));
      },
    )

    .put(
      '/:id/slide-index',
      answers(
        { 200: slideIndexJson },
        {
          summary:
            "Switch a lecture's slide index off or on again (on runs detection if it never ran); the teacher only",
        },
      ),
      signedIn,
      validate('param', lectureParam),
      validate('json', slideIndexChange),
      async (c) => {
        const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
        if (!lecture.videoId) throw notFound('video_not_found', 'errors.lectureHasNoVideo');
        await countChange(c.get('user').id);
        const queued = await switchSlideIndex(db, lecture.id, lecture.videoId, c.req.valid('json').enabled);
        if (queued) deps.jobs.wake();
        return c.json({ slideIndex: slideIndexState(await videoById(db, lecture.videoId)) ?? 'none' });
      },
    );
}
