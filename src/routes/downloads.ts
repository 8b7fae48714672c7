import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { downloadableLecture } from '../auth/access';
import { waitValues } from '../auth/limits';
import { requireUser } from '../auth/middleware';
import {
  type DownloadJson,
  downloadFileUrl,
  downloadJson,
  type OfflineManifestJson,
  offlineManifestJson,
  safeFilename,
  toDownloadJson,
} from '../contract/downloads';
import { captionUrl } from '../contract/lectures';
import { posterPath } from '../contract/videos';
import { videoById } from '../db/queries/lectures';
import { captions, type Download, type Lecture, type User, type Video } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound, tooMany } from '../errors';
import { fileResponse } from '../http/file-response';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { createRateLimiter } from '../lib/rate-limit';
import { downloadOf, downloadRung, requestDownload, rungBytes, rungFiles } from '../media/download';
import { segmentTokens } from '../media/segment-token';
import { readPlan } from '../media/state';
import { downloadKey, mediaFileName, mediaKey } from '../storage/keys';
import { PRESIGN_SECONDS } from './media';

/** `attachment` with the title as the file name: an ASCII fallback and the UTF-8 name (RFC 6266). */
function attachment(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * MP4 requests a person may make per hour (each may start a remux job): a whole class's lectures in one sitting,
 * not a script re-queuing failed copies. Counted per person, in the database, so every server process shares it.
 */
export const DOWNLOAD_REQUESTS_PER_HOUR = 30;

/**
 * Offline viewing (docs/offline.md): a lecture's MP4 download, made on demand from its phone-sized rung, and the
 * manifest a service worker caches to play it through HLS. Only someone who may watch the lecture, while its class
 * allows downloads (its teacher always). Mounted inside the lectures routes; each route asks for a signed-in user.
 */
export function downloadsRoutes(deps: AppDeps) {
  const { db, storage, config } = deps;
  const signedIn = requireUser(deps);
  const tokens = segmentTokens(config.jwtSecret, config.segmentTokenSeconds);
  const redirect = config.mediaDelivery === 'redirect' && storage.presign ? storage.presign.bind(storage) : undefined;
  const requests = createRateLimiter(db, 'download-requests', DOWNLOAD_REQUESTS_PER_HOUR, 60 * 60_000);
  /** Counted once the lecture may be downloaded: a refused request writes nothing, not even a count. */
  const countRequest = async (userId: string) => {
    const wait = await requests.hit(userId);
    if (wait > 0) throw tooMany('errors.tooManyDownloads', wait, waitValues(wait));
  };

  /** The lecture and its ready video, for someone who may download it; refused with why otherwise. */
  async function downloadable(user: User, lectureId: string): Promise<{ lecture: Lecture; video: Video }> {
    const { lecture } = await downloadableLecture(db, user, lectureId);
    const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
    if (!video) throw new ApiError(409, 'no_video', 'errors.noVideoToDownload');
    if (video.status !== 'ready') {
      throw new ApiError(409, 'video_not_ready', 'errors.videoNotReadyTryLater');
    }
    return { lecture, video };
  }

  const rungOf = (video: Video) => {
    const index = downloadRung(readPlan(video));
    const rung = readPlan(video).rungs[index];
    return { index, json: { name: rung?.name ?? '', width: rung?.width ?? 0, height: rung?.height ?? 0 } };
  };

  /** The state as the API answers it; the rung's size is listed from storage only while the MP4's is not known. */
  async function stateOf(lecture: Lecture, video: Video, row: Download | undefined) {
    const rung = rungOf(video);
    const known = row?.status === 'ready' && row.bytes !== null;
    const estimate = known ? 0 : await rungBytes(storage, video.id, rung.index);
    return toDownloadJson(lecture.id, lecture.nameOfTopic, rung.json, row, estimate);
  }

  return new Hono<AppEnv>()
    .get(
      '/:id/download',
      answers(
        { 200: downloadJson },
        { summary: "The state of a lecture's offline MP4: none, preparing, ready (with url) or failed" },
      ),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const { lecture, video } = await downloadable(c.get('user'), c.req.valid('param').id);
        const answer: DownloadJson = await stateOf(lecture, video, await downloadOf(db, video));
        return c.json(answer);
      },
    )
    .post(
      '/:id/download',
      answers(
        { 200: downloadJson, 202: downloadJson },
        {
          summary: "Start (or find) a lecture's offline MP4: 202 while it is prepared, 200 when ready",
          description: `At most ${DOWNLOAD_REQUESTS_PER_HOUR} an hour per person; over that, 429 with Retry-After.`,
        },
      ),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const { lecture, video } = await downloadable(c.get('user'), c.req.valid('param').id);
        await countRequest(c.get('user').id);
        const row = await requestDownload(db, storage, video);
        deps.jobs.wake();
        const answer: DownloadJson = await stateOf(lecture, video, row);
        return c.json(answer, answer.status === 'ready' ? 200 : 202);
      },
    )
    .on(
      ['GET', 'HEAD'],
      '/:id/download/file',
      answers(
        {
          200: { media: 'video/mp4', description: 'The MP4, as an attachment named after the lecture.' },
          206: { media: 'video/mp4', description: 'The asked range of it.' },
          302: 'MEDIA_DELIVERY=redirect: to a short-lived presigned URL that answers it with the same file name.',
        },
        { summary: "A lecture's offline MP4 (ranges; Content-Disposition: attachment with its title)" },
      ),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const { lecture, video } = await downloadable(c.get('user'), c.req.valid('param').id);
        const row = await downloadOf(db, video);
        const notReady = () => new ApiError(409, 'download_not_ready', 'errors.downloadNotReady');
        if (row?.status !== 'ready') throw notReady();
        const key = downloadKey(video.id, row.id);
        const disposition = attachment(safeFilename(lecture.nameOfTopic));
        if (redirect) {
          return new Response(null, {
            status: 302,
            headers: {
              Location: redirect(key, PRESIGN_SECONDS, { contentDisposition: disposition }),
              'Cache-Control': 'private, no-store',
            },
          });
        }
        const stored = await storage.stat(key);
        if (!stored) throw notReady();
        const response = await fileResponse(c.req.raw, stored.size, (range) => storage.get(key, range), {
          'Content-Type': 'video/mp4',
          'Content-Disposition': disposition,
          'Cache-Control': 'private, no-store',
        });
        if (!response) throw notReady();
        return response;
      },
    )
    .get(
      '/:id/offline',
      answers(
        { 200: offlineManifestJson },
        {
          summary:
            "What a service worker caches to play a lecture offline: its rung's playlist and files, captions, size",
        },
      ),
      signedIn,
      validate('param', idParam),
      async (c) => {
        const { lecture, video } = await downloadable(c.get('user'), c.req.valid('param').id);
        const rung = rungOf(video);
        const playlist = await storage.get(mediaKey(video.id, { kind: 'playlist', rung: rung.index }));
        if (!playlist) throw notFound('media_not_found', 'errors.videoFilesMissing');
        const files = rungFiles(await new Response(playlist).text(), rung.index);
        const token = tokens.issue(video.id);
        const base = `/media/videos/${video.id}/${token}`;
        const captionRows = await db
          .select({ id: captions.id, language: captions.language, label: captions.label, vtt: captions.vtt })
          .from(captions)
          .where(eq(captions.lectureId, lecture.id))
          .orderBy(captions.label);
        const captionList = captionRows.map((caption) => ({
          language: caption.language,
          label: caption.label,
          url: captionUrl(lecture.id, caption.id),
          bytes: Buffer.byteLength(caption.vtt),
        }));
        const answer: OfflineManifestJson = {
          lectureId: lecture.id,
          lecture: `/api/lectures/${lecture.id}`,
          rung: rung.json,
          playlist: `${base}/${mediaFileName({ kind: 'playlist', rung: rung.index })}`,
          files: files.map((file) => `${base}/${mediaFileName(file)}`),
          poster: video.hasPoster ? posterPath(video.id) : null,
          captions: captionList,
          bytes:
            (await rungBytes(storage, video.id, rung.index)) +
            captionList.reduce((sum, caption) => sum + caption.bytes, 0),
          durationSeconds: video.durationMs / 1000,
          expiresAt: new Date(Number(token.split('.')[0]) * 1000).toISOString(),
          download: downloadFileUrl(lecture.id),
        };
        return c.json(answer);
      },
    );
}
