import { join } from 'node:path';
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
import { mediaFileName, mediaKey, parseMediaPath, scratchDir } from '../storage/keys';

const contentTypes = {
  playlist: 'application/vnd.apple.mpegurl',
  init: 'video/mp4',
  segment: 'video/iso.segment',
  poster: 'image/jpeg',
} as const;

const IMMUTABLE = 'private, max-age=31536000, immutable';

/** HLS files and posters, for the uploader and for those who can read a class that shows the video. */
export function mediaRoutes(deps: AppDeps) {
  const { db, config, storage } = deps;
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
      // While transcoding, files are in the worker's scratch folder (served as they grow); a job finishing
      // mid-request hands them to storage, so try both.
      if (growing) {
        const local = Bun.file(join(scratchDir(config.dataDir, videoId), mediaFileName(file)));
        if (await local.exists()) {
          const response = await fileResponse(
            c.req.raw,
            local.size,
            async (range) => (range ? local.slice(range.start, range.end + 1) : local),
            headers,
          );
          if (response) return response;
        }
      }
      const key = mediaKey(videoId, file);
      const stored = await storage.stat(key);
      const response =
        stored && (await fileResponse(c.req.raw, stored.size, (range) => storage.get(key, range), headers));
      if (response) return response;
      throw notFound('media_not_found', 'Not found.');
    },
  );
}
