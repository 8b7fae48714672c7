import { Server, type Upload } from '@tus/server';
import { type Context, Hono } from 'hono';
import { requireApprovedTeacher, requireUser } from '../auth/middleware';
import { toVideoJson, uploadJson } from '../contract/videos';
import { lectureOfVideo, videoById } from '../db/queries/lectures';
import type { User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, errorBody, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { newId } from '../lib/ids';
import { acceptUpload, checkDiskRoom, checkUploadTarget, tooLarge } from '../media/accept-upload';

const uploadGone = () => notFound('upload_not_found', 'There is no such upload. Please start it again.');

/**
 * Resumable uploads: tus 1.0 (core, creation, termination, expiration) at `/api/uploads`, by @tus/server with
 * its data store from storage (`storage/resumable.ts`: a file per upload on the local disk; parts in the bucket on S3,
 * so an upload begun on one server process can finish on another). Approved teachers only; each upload belongs to its creator (stored by
 * the server in the upload's metadata). Same size limit, disk check and ffprobe checks as `POST /api/upload`; the
 * last byte turns it into a video (its id is the upload's id) through the same `acceptUpload`, and
 * `GET /api/uploads/{id}` then answers what `POST /api/upload` answers.
 */
export function resumableUploadRoutes(deps: AppDeps) {
  const { config, db, storage } = deps;
  const resumable = storage.resumable();
  const datastore = resumable.tus;
  // The signed-in user of each request tus hands back to our hooks.
  const users = new WeakMap<Request, User>();
  const userOf = (request: Request) => {
    const user = users.get(request);
    if (!user) throw { status_code: 401, body: JSON.stringify(errorBody('unauthorized', 'Please sign in.')) };
    return user;
  };
  const refuse = (error: ApiError) => ({
    status_code: error.status,
    body: JSON.stringify(errorBody(error.code, error.message, error.extra)),
  });
  const targetOf = (upload: Upload) => ({
    courseId: upload.metadata?.courseId ?? undefined,
    nameOfTopic: upload.metadata?.nameOfTopic ?? undefined,
    lectureId: upload.metadata?.lectureId ?? undefined,
  });

  const tus = new Server({
    path: '/api/uploads',
    datastore,
    maxSize: config.maxUploadBytes,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Same origin only: no Access-Control-Allow-Origin (tus's default is `*`). Our web uploads from its own origin.
    allowedOrigins: () => false,
    namingFunction: () => newId(),
    async onUploadCreate(request, upload) {
      const user = userOf(request as unknown as Request);
      try {
        if (upload.size === undefined) {
          throw new ApiError(400, 'length_required', 'Please say how large the file is (Upload-Length).');
        }
        if (upload.size > config.maxUploadBytes) throw tooLarge(config.maxUploadBytes);
        checkDiskRoom(config, upload.size);
        await checkUploadTarget(deps, user, targetOf(upload));
      } catch (error) {
        if (error instanceof ApiError) throw refuse(error);
        throw error;
      }
      // The owner is the server's word, whatever metadata the client sent.
      return { metadata: { ...upload.metadata, owner: user.id } };
    },
    async onIncomingRequest(request, uploadId) {
      const user = userOf(request as unknown as Request);
      // A creation names the id it is about to make: onUploadCreate checks that one.
      if (request.method === 'POST') return;
      const upload = await datastore.getUpload(uploadId).catch(() => undefined);
      if (!upload || upload.metadata?.owner !== user.id) throw refuse(uploadGone());
    },
    async onUploadFinish(request, upload) {
      const user = userOf(request as unknown as Request);
      let file: Awaited<ReturnType<typeof resumable.finished>> | undefined;
      try {
        file = await resumable.finished(upload.id);
        await acceptUpload(deps, {
          user,
          path: file.path,
          fileName: upload.metadata?.filename ?? upload.metadata?.name ?? 'video',
          bytes: upload.size ?? upload.offset,
          target: targetOf(upload),
          videoId: upload.id,
        });
        return {};
      } catch (error) {
        if (error instanceof ApiError) throw refuse(error);
        throw error;
      } finally {
        file?.release();
        await resumable.forget(upload.id);
      }
    },
    onResponseError(_request, error) {
      // tus answers its own refusals in plain text: give every client our one error shape.
      if ('status_code' in error && error.body.startsWith('{')) return error;
      const status = 'status_code' in error ? error.status_code : 500;
      const message = 'status_code' in error ? error.body.trim() : 'The upload failed. Please try again.';
      const code = status === 413 ? 'too_large' : status === 404 ? 'upload_not_found' : 'upload_refused';
      return { status_code: status, body: JSON.stringify(errorBody(code, message)) };
    },
  });

  const handle = async (c: Context<AppEnv>) => {
    users.set(c.req.raw, c.get('user'));
    const response = await tus.handleWeb(c.req.raw);
    if (response.body && response.status >= 400) {
      const headers = new Headers(response.headers);
      headers.set('Content-Type', 'application/json');
      return new Response(response.body, { status: response.status, headers });
    }
    return response;
  };

  // tus's discovery request: `OPTIONS` answers without a sign-in, as the protocol requires, with Tus-Version,
  // Tus-Extension and Tus-Max-Size (it reveals nothing about anyone's uploads). Registered before the sign-in check.
  const discover = async (c: Context<AppEnv>) => tus.handleWeb(c.req.raw);

  const tusDiscovery = answers(
    { 204: 'tus: `Tus-Version`, `Tus-Extension` and `Tus-Max-Size`.' },
    { summary: 'tus: what this server supports (no sign-in)' },
  );
  return new Hono<AppEnv>()
    .options('/', tusDiscovery, discover)
    .options('/:id', tusDiscovery, discover)
    .use(requireUser(deps), requireApprovedTeacher)
    .get(
      '/:id',
      answers(
        { 200: uploadJson },
        { summary: 'What a finished resumable upload became (as POST /api/upload answers)' },
      ),
      validate('param', idParam),
      async (c) => {
        const id = c.req.valid('param').id;
        // Hono answers HEAD with the GET route: a tus HEAD (where is my upload?) goes to tus, unless the upload
        // already became a video: then it is complete. A client whose last response was lost (the network dropped
        // as the last byte landed) must hear that, not a 404 that makes it start over and add the topic twice.
        if (c.req.method === 'HEAD') {
          const finished = await videoById(db, id);
          if (finished && finished.ownerId === c.get('user').id) {
            return c.body(null, 200, {
              'Tus-Resumable': '1.0.0',
              'Upload-Offset': String(finished.sourceBytes),
              'Upload-Length': String(finished.sourceBytes),
              'Cache-Control': 'no-store',
            });
          }
          return handle(c);
        }
        const video = await videoById(db, id);
        if (!video || video.ownerId !== c.get('user').id) {
          const pending = await datastore.getUpload(id).catch(() => undefined);
          if (pending?.metadata?.owner === c.get('user').id) {
            throw new ApiError(409, 'upload_incomplete', 'This upload has not finished yet.', {
              offset: pending.offset,
              size: pending.size,
            });
          }
          throw uploadGone();
        }
        const json = toVideoJson(video);
        const lecture = await lectureOfVideo(db, id);
        return c.json({ masterPlaylist: json.masterPlaylist, videoId: id, video: json, lectureId: lecture?.id });
      },
    )
    .on(
      ['POST', 'HEAD', 'PATCH', 'DELETE'],
      '/',
      answers(
        { 201: 'Created: `Location` names the upload.', 204: 'tus: done (HEAD, PATCH, DELETE).' },
        { summary: 'tus: create an upload' },
      ),
      handle,
    )
    .on(
      ['PATCH', 'DELETE'],
      '/:id',
      answers(
        { 204: 'tus: `Upload-Offset` says how much the server has.' },
        { summary: 'tus: resume, send or end an upload' },
      ),
      handle,
    );
}
