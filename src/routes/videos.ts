import { Hono } from 'hono';
import { ownVideo, watchableVideo } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { messageJson } from '../contract/users';
import { TRIM_MIN_SECONDS, toVideoJson, videoJson, videoTrimBody } from '../contract/videos';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfRequest, type MessageKey, translate } from '../i18n/translate';
import { getVideo, retryFailed, type TrimMs, trimVideo } from '../media/state';
import { deleteUnreferencedVideos, shownInLecture } from '../media/videos';
import { sourceKey } from '../storage/keys';

const badTrim = (field: 'start' | 'end', message: MessageKey) =>
  badRequest('invalid_input', message, { fields: { [field]: message } });

/** Not in the spec: a video's processing status, the teacher's Retry for a failed one, Trim, and Delete (unused only). */
export function videosRoutes(deps: AppDeps) {
  const { config, db, jobs, storage } = deps;
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
    })
    .patch(
      '/:id/trim',
      answers(
        { 200: videoJson },
        {
          summary: 'Keep the video from `start` to `end` (seconds of the original) and transcode it again',
          description:
            'Owner only. `0 ≤ start < end ≤ duration + 1`, at least 1 s kept (400 otherwise, nothing changed). The ' +
            'whole length undoes a trim; the trim it already has changes nothing. 409 `trim_unavailable` once the ' +
            'original is gone (it is removed after a lecture shows the video, unless KEEP_ORIGINALS).',
        },
      ),
      validate('param', idParam),
      validate('json', videoTrimBody),
      async (c) => {
        const video = await ownVideo(db, c.get('user'), c.req.valid('param').id, 'errors.onlyUploaderCanChange');
        const sourceMs = video.sourceDurationMs ?? video.durationMs;
        const { start, end } = c.req.valid('json');
        const startMs = Math.round(start * 1000);
        // The player's idea of the end may run a little past the probed length: up to a second is the end.
        if (end * 1000 > sourceMs + 1000) throw badTrim('end', 'fields.trimPastEnd');
        const endMs = Math.min(Math.round(end * 1000), sourceMs);
        if (endMs - startMs < TRIM_MIN_SECONDS * 1000) throw badTrim('end', 'fields.trimTooShort');
        const trim: TrimMs = startMs <= 0 && endMs >= sourceMs ? null : { startMs, endMs };
        const same =
          trim === null
            ? video.trimStartMs === null
            : video.trimStartMs === trim.startMs && video.trimEndMs === trim.endMs;
        if (same) return c.json(toVideoJson(video));
        if (!(await storage.stat(sourceKey(video.id)))) {
          throw new ApiError(409, 'trim_unavailable', 'errors.trimNeedsOriginal');
        }
        await trimVideo(db, video, trim, config.jobLeaseMs);
        jobs.wake();
        return c.json(toVideoJson(await watchableVideo(db, c.get('user'), video.id)));
      },
    )
    .delete(
      '/:id',
      answers(
        { 200: messageJson },
        {
          summary: 'Delete a video no lecture shows (a recording discarded), with its files and jobs',
          description: 'Owner only; 409 `video_in_use` while a lecture shows it.',
        },
      ),
      validate('param', idParam),
      async (c) => {
        const video = await ownVideo(db, c.get('user'), c.req.valid('param').id, 'errors.onlyUploaderCanChange');
        const inUse = () => new ApiError(409, 'video_in_use', 'errors.videoInUse');
        if (await shownInLecture(db, video.id)) throw inUse();
        await deleteUnreferencedVideos(deps, [video.id]);
        // A lecture may have taken it meanwhile: then the delete kept it.
        if (await getVideo(db, video.id)) throw inUse();
        return c.json({ message: translate(localeOfRequest(c), 'videos.answer.deleted') });
      },
    );
}
