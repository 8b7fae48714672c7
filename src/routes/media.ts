import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture, watchableVideo } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { captionUrl } from '../contract/lectures';
import { captionsOf } from '../db/queries/lectures';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { fileResponse } from '../http/file-response';
import { answers } from '../http/openapi';
import { idSchema, validate } from '../http/validation';
import { masterPlaylist } from '../media/master-playlist';
import { segmentTokens } from '../media/segment-token';
import { readPlan } from '../media/state';
import { type MediaFile, mediaKey, parseMediaPath } from '../storage/keys';

const contentTypes = {
  playlist: 'application/vnd.apple.mpegurl',
  init: 'video/mp4',
  segment: 'video/iso.segment',
  poster: 'image/jpeg',
} as const;

const IMMUTABLE = 'private, max-age=31536000, immutable';
/**
 * A segment or init file under a valid token: its URL is the credential (as a presigned URL is), so a school-side cache
 * or a CDN may keep it, under a key that leaves the token folder out.
 */
const SHARED_IMMUTABLE = 'public, max-age=31536000, immutable';
/** How long a presigned segment URL lives (MEDIA_DELIVERY=redirect): enough to fetch it, too short to pass around. */
export const PRESIGN_SECONDS = 60;

/**
 * HLS files and posters, for the uploader and for those who can read a class that shows the video. The master is
 * made per request after the session and class checks; it points into a signed token folder, and rung playlists and
 * segments under a valid token are answered on the HMAC alone (media/segment-token.ts). Without a token, or with one
 * that expired, the session and class checks decide, so a player open longer than a token keeps playing for a member.
 */
export function mediaRoutes(deps: AppDeps) {
  const { db, config, storage } = deps;
  const tokens = segmentTokens(config.jwtSecret, config.segmentTokenSeconds);
  const authenticate = requireUser(deps);
  const redirect = config.mediaDelivery === 'redirect' && storage.presign ? storage.presign.bind(storage) : undefined;
  const params = z.object({ videoId: idSchema, rest: z.string().max(64) });
  return new Hono<AppEnv>().on(
    ['GET', 'HEAD'],
    '/videos/:videoId/:rest{.+}',
    answers({
      200: { media: 'application/octet-stream', description: 'A playlist, init file, segment or poster.' },
      206: { media: 'application/octet-stream', description: 'The range asked for.' },
      302: 'To the storage (MEDIA_DELIVERY=redirect).',
    }),
    validate('param', params),
    // The master of a lecture's video lists that lecture's captions: `?lecture=` names it.
    validate('query', z.object({ lecture: idSchema.optional() })),
    async (c) => {
      const { videoId, rest } = c.req.valid('param');
      const token = tokens.check(videoId, rest);
      const file = parseMediaPath(token ? token.rest : rest);
      // Only rung playlists, init files and segments live under a token folder.
      if (!file || (token && (file === 'master' || file.kind === 'poster'))) {
        throw notFound('media_not_found', 'errors.notFound');
      }
      if (token?.state === 'valid' && file !== 'master') {
        // No session, no database: the HMAC said yes. A playlist is read fresh each time (it grows while transcoding).
        const cache = file.kind === 'playlist' ? 'no-cache' : SHARED_IMMUTABLE;
        return serve(c.req.raw, mediaKey(videoId, file), file.kind, {
          'Content-Type': contentTypes[file.kind],
          'Cache-Control': cache,
        });
      }
      await authenticate(c, async () => {});
      const video = await watchableVideo(db, c.get('user'), videoId);
      const growing = video.status !== 'ready';

      if (file === 'master') {
        if (video.status === 'failed' || (growing && video.firstPlayableAt === null)) {
          throw new ApiError(409, 'video_not_ready', 'errors.videoNotReady', {
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
        const folder = `${tokens.issue(video.id)}/`;
        return c.body(masterPlaylist(plan.rungs, plan.fps, plan.hasAudio, subtitles, folder), 200, {
          'Content-Type': contentTypes.playlist,
          'Cache-Control': growing ? 'no-cache' : 'private, max-age=300',
        });
      }

      const headers = {
        'Content-Type': contentTypes[file.kind],
        'Cache-Control': file.kind === 'playlist' ? (growing ? 'no-cache' : 'private, max-age=300') : IMMUTABLE,
      };
      return serve(c.req.raw, mediaKey(videoId, file), file.kind, headers);
    },
  );

  /**
   * Answers a stored file, with ranges. Every file is in storage, a growing video's too: the worker publishes each
   * segment and a playlist cut at the last one as they are made (media/publish.ts), so any server process answers them.
   */
  async function serve(request: Request, key: string, kind: MediaFile['kind'], headers: Record<string, string>) {
    if (redirect && (kind === 'segment' || kind === 'init')) {
      // The access check stays in the app; the bytes come from the bucket.
      return new Response(null, {
        status: 302,
        headers: { Location: redirect(key, PRESIGN_SECONDS), 'Cache-Control': 'private, no-store' },
      });
    }
    const stored = await storage.stat(key);
    const response = stored && (await fileResponse(request, stored.size, (range) => storage.get(key, range), headers));
    if (response) return response;
    throw notFound('media_not_found', 'errors.notFound');
  }
}
