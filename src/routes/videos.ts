import { Hono } from 'hono';
import { watchableVideo } from '../auth/course-access';
import { requireUser } from '../auth/middleware';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, forbidden } from '../errors';
import { retryFailed } from '../media/state';
import { toVideoJson } from '../media/video-json';
import { idParam, validate } from '../validation';

/** Not in the spec: a video's processing status, and the teacher's Retry for a failed one. */
export function videosRoutes(deps: AppDeps) {
  const { db, media } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get('/:id', validate('param', idParam), (c) => {
      return c.json(toVideoJson(watchableVideo(db, c.get('user'), c.req.valid('param').id)));
    })
    .post('/:id/retry', validate('param', idParam), (c) => {
      const video = watchableVideo(db, c.get('user'), c.req.valid('param').id);
      if (video.ownerId !== c.get('user').id) throw forbidden('Only the teacher who uploaded this video can retry it.');
      if (!retryFailed(db, video.id)) throw new ApiError(409, 'not_failed', 'Only a video that failed can be retried.');
      media.wake();
      return c.json(toVideoJson(watchableVideo(db, c.get('user'), video.id)));
    });
}
