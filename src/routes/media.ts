import { join } from 'node:path';
import { Hono } from 'hono';
import { z } from 'zod';
import { watchableVideo } from '../auth/course-access';
import { requireUser } from '../auth/middleware';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { fileResponse } from '../http-files';
import { masterPlaylist } from '../media/master-playlist';
import { mediaFileName, parseMediaPath, videoDir, workDir } from '../media/paths';
import { readPlan } from '../media/state';
import { idSchema, validate } from '../validation';

const contentTypes = {
  playlist: 'application/vnd.apple.mpegurl',
  init: 'video/mp4',
  segment: 'video/iso.segment',
  poster: 'image/jpeg',
} as const;

const IMMUTABLE = 'private, max-age=31536000, immutable';

/** HLS files and posters, for the uploader and for those who can read a class that shows the video. */
export function mediaRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const params = z.object({ videoId: idSchema, rest: z.string().max(64) });
  return new Hono<AppEnv>().on(
    ['GET', 'HEAD'],
    '/videos/:videoId/:rest{.+}',
    requireUser(deps),
    validate('param', params),
    async (c) => {
      const { videoId, rest } = c.req.valid('param');
      const file = parseMediaPath(rest);
      if (!file) throw notFound('media_not_found', 'Not found.');
      const video = watchableVideo(db, c.get('user'), videoId);
      const growing = video.status !== 'ready';

      if (file === 'master') {
        if (video.status === 'failed' || (growing && video.firstPlayableAt === null)) {
          throw new ApiError(409, 'video_not_ready', 'This video is still being processed.', {
            status: video.status,
            progress: video.progress,
          });
        }
        const plan = readPlan(video);
        return c.body(masterPlaylist(plan.rungs, plan.fps, plan.hasAudio), 200, {
          'Content-Type': contentTypes.playlist,
          'Cache-Control': growing ? 'no-cache' : 'private, max-age=300',
        });
      }

      const name = mediaFileName(file);
      // While transcoding, files are in the work folder; a job finishing mid-request moves them, so try both.
      const folders = growing
        ? [workDir(config.dataDir, videoId), videoDir(config.dataDir, videoId)]
        : [videoDir(config.dataDir, videoId)];
      const cacheControl = file.kind === 'playlist' ? (growing ? 'no-cache' : 'private, max-age=300') : IMMUTABLE;
      for (const folder of folders) {
        const response = await fileResponse(c.req.raw, join(folder, name), {
          'Content-Type': contentTypes[file.kind],
          'Cache-Control': cacheControl,
        });
        if (response) return response;
      }
      throw notFound('media_not_found', 'Not found.');
    },
  );
}
