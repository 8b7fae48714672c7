import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture, watchableVideo } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { captionUrl } from '../contract/lectures';
import { captionsOf } from '../db/queries/lectures';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { fileResponse } from '../http/file-response';
import { idSchema, validate } from '../http/validation';
import { masterPlaylist } from '../media/master-playlist';
import { readPlan } from '../media/state';
import { mediaKey, parseMediaPath } from '../storage/keys';

const contentTypes = {
  playlist: 'application/vnd.apple.mpegurl',
  init: 'video/mp4',
  segment: 'video/iso.segment',
  poster: 'image/jpeg',
} as const;

const IMMUTABLE = 'private, max-age=31536000, immutable';
/** How long a presigned segment URL lives (MEDIA_DELIVERY=redirect): enough to fetch it, too short to pass around. */
export const PRESIGN_SECONDS = 60;

/** HLS files and posters, for the uploader and for those who can read a class that shows the video. */
export function mediaRoutes(deps: AppDeps) {
  const { db, config, storage } = deps;
  const redirect = config.mediaDelivery === 'redirect' && storage.presign ? storage.presign.bind(storage) : undefined;
  const params = z.object({ videoId: idSchema, rest: z.string().max(64) });
  return new Hono<AppEnv>().on(
    ['GET', 'HEAD'],
    '/videos/:videoId/:rest{.+}',
    requireUser(deps),
    validate('param', params),
    // The master of a lecture's video lists that lecture's captions: `?lecture=` names it.
    validate('query', z.object({ lecture: idSchema.optional() })),
    async (c) => {
      const { videoId, rest } = c.req.valid('param');
      const file = parseMediaPath(rest);
      if (!file) throw notFound('media_not_found', 'Not found.');
      const video = await watchableVideo(db, c.get('user'), videoId);
      const growing = video.status !== 'ready';

      if (file === 'master') {
        if (video.status === 'failed' || (growing && video.firstPlayableAt === null)) {
          throw new ApiError(409, 'video_not_ready', 'This video is still being processed.', {
            status: video.status,
            progress: video.progress,
          });
        }
        const plan = readPlan(video);
        const lectureId = c.req.valid('query').lecture;
        const shown = lectureId ? (await readableLecture(db, c.get('user'), lectureId)).lecture : undefined;
        const subtitles =
          shown?.videoId === video.id
            ? ((await captionsOf(db, [shown.id])).get(shown.id) ?? []).map((caption) => ({
                language: caption.language,
                label: caption.label,
                uri: captionUrl(shown.id, caption.id).replace(/\.vtt$/, '.m3u8'),
              }))
            : [];
        return c.body(masterPlaylist(plan.rungs, plan.fps, plan.hasAudio, subtitles), 200, {
          'Content-Type': contentTypes.playlist,
          'Cache-Control': growing ? 'no-cache' : 'private, max-age=300',
        });
      }

      const headers = {
        'Content-Type': contentTypes[file.kind],
        'Cache-Control': file.kind === 'playlist' ? (growing ? 'no-cache' : 'private, max-age=300') : IMMUTABLE,
      };
      // Every file is in storage, a growing video's too: the worker publishes each segment and a playlist cut at
      // the last one as they are made (media/publish.ts), so any server process answers them.
      const key = mediaKey(videoId, file);
      if (redirect && (file.kind === 'segment' || file.kind === 'init')) {
        // The access check above stays in the app; the bytes come from the bucket.
        return c.body(null, 302, { Location: redirect(key, PRESIGN_SECONDS), 'Cache-Control': 'private, no-store' });
      }
      const stored = await storage.stat(key);
      const response =
        stored && (await fileResponse(c.req.raw, stored.size, (range) => storage.get(key, range), headers));
      if (response) return response;
      throw notFound('media_not_found', 'Not found.');
    },
  );
}
