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

/** What each tus header is for, said to whoever sent a bad one. */
const HEADER_PROBLEMS: Record<string, string> = {
  'tus-resumable': 'This server speaks tus 1.0.0: send Tus-Resumable: 1.0.0.',
  'upload-length': "Upload-Length must be the file's size in bytes.",
  'upload-offset': 'Upload-Offset must be a number of bytes.',
  'upload-metadata': 'Upload-Metadata must be key and base64 value pairs, separated by commas.',
  'upload-defer-length': 'Please say how large the file is (Upload-Length).',
  'content-type': "Send the file's bytes as application/offset+octet-stream.",
};

/** tus's own refusals (plain text) in our words, by tus's text; anything else by its status. */
const TUS_REFUSALS: Record<string, [code: string, message: string]> = {
  'tus-resumable required': ['tus_version_required', HEADER_PROBLEMS['tus-resumable']],
  'upload-length or upload-defer-length header required': [
    'length_required',
    'Please say how large the file is (Upload-Length).',
  ],
  'upload-offset header required': ['offset_required', 'Please say where this piece starts (Upload-Offset).'],
  'content-type header required': ['content_type_required', HEADER_PROBLEMS['content-type']],
  'upload-offset conflict': [
    'offset_conflict',
    'This piece does not start where the upload stands. Ask where it stands (HEAD) and resume from there.',
  ],
  "upload's size exceeded": ['too_large', 'More bytes were sent than the upload said it would have.'],
  'the file for this url was not found': ['upload_not_found', uploadGone().message],
  'the file for this url no longer exists': ['upload_not_found', uploadGone().message],
  'request aborted due to lock acquired': [
    'upload_busy',
    'Another request is sending to this upload. Please try again.',
  ],
  'cannot terminate an already completed upload': ['upload_complete', 'This upload is complete and cannot be ended.'],
};

/** A tus refusal as our error shape: `Invalid upload-length upload-metadata` names each bad header in `fields`. */
export function tusRefusal(status: number, text: string, maxUploadBytes: number) {
  const said = text.trim().toLowerCase();
  if (said.startsWith('invalid ')) {
    const headers = said.slice('invalid '.length).split(/\s+/);
    const fields = Object.fromEntries(headers.map((name) => [name, HEADER_PROBLEMS[name] ?? `${name} is not valid.`]));
    const code = `invalid_${headers[0].replaceAll('-', '_')}`;
    return errorBody(code, Object.values(fields)[0], { fields });
  }
  if (said === 'maximum size exceeded') return errorBody('too_large', tooLarge(maxUploadBytes).message);
  if (said.startsWith('upload-metadata is invalid')) {
    return errorBody('invalid_upload_metadata', HEADER_PROBLEMS['upload-metadata']);
  }
  const known = TUS_REFUSALS[said];
  if (known) return errorBody(...known);
  if (status >= 500) return errorBody('upload_failed', 'The upload failed. Please try again.');
  return errorBody('upload_refused', 'The upload was refused. Please start it again.');
}

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
        if (Object.values(upload.metadata ?? {}).some((value) => value?.includes('\0'))) {
          throw new ApiError(400, 'invalid_upload_metadata', 'The upload’s details contain hidden characters.');
        }
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
      const text = 'status_code' in error ? error.body : '';
      return { status_code: status, body: JSON.stringify(tusRefusal(status, text, config.maxUploadBytes)) };
    },
  });

  const handle = async (c: Context<AppEnv>) => {
    users.set(c.req.raw, c.get('user'));
    const response = await tus.handleWeb(c.req.raw);
    if (response.status < 400 || c.req.method === 'HEAD') return response;
    // Some refusals (a missing Tus-Resumable, a malformed header) are written before onResponseError is asked.
    const text = await response.text();
    const body = text.startsWith('{') ? text : JSON.stringify(tusRefusal(response.status, text, config.maxUploadBytes));
    const headers = new Headers(response.headers);
    headers.set('Content-Type', 'application/json');
    headers.delete('Content-Length');
    return new Response(body, { status: response.status, headers });
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
      validate('param', idParam),
      handle,
    );
}
