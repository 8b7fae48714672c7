import { Hono } from 'hono';
import { ownVideo, watchableVideo } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { toVideoJson, videoJson } from '../contract/videos';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { retryFailed } from '../media/state';

/** Not in the spec: a video's processing status, and the teacher's Retry for a failed one. */
export function videosRoutes(deps: AppDeps) {
  const { db, jobs } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get('/:id', answers({ 200: videoJson }), validate('param', idParam), async (c) => {
      return c.json(toVideoJson(await watchableVideo(db, c.get('user'), c.req.valid('param').id)));
    })
    .post('/:id/retry', answers({ 200: videoJson }), validate('param', idParam), async (c) => {
      const video = await ownVideo(db, c.get('user'), c.req.valid('param').id);
      if (!(await retryFailed(db, video.id))) {
        throw new ApiError(409, 'not_failed', 'errors.videoNotFailed');
      }
      jobs.wake();
      return c.json(toVideoJson(await watchableVideo(db, c.get('user'), video.id)));
    });
}
