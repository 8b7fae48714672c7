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
import type { MessageKey } from '../i18n/translate';
import { newId } from '../lib/ids';
import { acceptUpload, checkDiskRoom, checkRecordingTarget, checkUploadTarget, tooLarge } from '../media/accept-upload';

const uploadGone = () => notFound('upload_not_found', 'errors.uploadNotFound');

/** What each tus header is for, said to whoever sent a bad one. */
const HEADER_PROBLEMS: Record<string, MessageKey> = {
  'tus-resumable': 'errors.tusVersion',
  'upload-length': 'errors.tusUploadLength',
  'upload-offset': 'errors.tusUploadOffset',
  'upload-metadata': 'errors.tusUploadMetadata',
  'upload-defer-length': 'errors.tusLengthRequired',
  'content-type': 'errors.tusContentType',
};

/** tus's own refusals (plain text) in our words, by tus's text; anything else by its status. */
const TUS_REFUSALS: Record<string, [code: string, message: MessageKey]> = {
  'tus-resumable required': ['tus_version_required', 'errors.tusVersion'],
  'upload-length or upload-defer-length header required': ['length_required', 'errors.tusLengthRequired'],
  'upload-offset header required': ['offset_required', 'errors.tusOffsetRequired'],
  'content-type header required': ['content_type_required', 'errors.tusContentType'],
  'upload-offset conflict': ['offset_conflict', 'errors.tusOffsetConflict'],
  "upload's size exceeded": ['too_large', 'errors.tusSizeExceeded'],
  'the file for this url was not found': ['upload_not_found', 'errors.uploadNotFound'],
  'the file for this url no longer exists': ['upload_not_found', 'errors.uploadNotFound'],
  'request aborted due to lock acquired': ['upload_busy', 'errors.uploadBusy'],
  'cannot terminate an already completed upload': ['upload_complete', 'errors.uploadComplete'],
};

/** A tus refusal as our error shape: `Invalid upload-length upload-metadata` names each bad header in `fields`. */
export function tusRefusal(c: Context, status: number, text: string, maxUploadBytes: number) {
  const said = text.trim().toLowerCase();
  if (said.startsWith('invalid ')) {
    const headers = said.slice('invalid '.length).split(/\s+/);
    const fields = Object.fromEntries(
      headers.map((name): [string, MessageKey] => [name, HEADER_PROBLEMS[name] ?? 'errors.tusHeaderInvalid']),
    );
    const code = `invalid_${headers[0].replaceAll('-', '_')}`;
    return errorBody(c, code, Object.values(fields)[0] ?? 'errors.tusHeaderInvalid', { fields });
  }
  if (said === 'maximum size exceeded') {
    const error = tooLarge(maxUploadBytes);
    return errorBody(c, 'too_large', error.message as MessageKey, {}, error.values);
  }
  if (said.startsWith('upload-metadata is invalid')) {
    return errorBody(c, 'invalid_upload_metadata', 'errors.tusUploadMetadata');
  }
  const known = TUS_REFUSALS[said];
  if (known) return errorBody(c, ...known);
  if (status >= 500) return errorBody(c, 'upload_failed', 'errors.uploadFailed');
  return errorBody(c, 'upload_refused', 'errors.uploadRefused');
}

/**
 * Resumable uploads: tus 1.0 (core, creation, termination, expiration) at `/api/uploads`, by @tus/server with
 * its data store from storage (`storage/resumable.ts`: a file per upload on the local disk; parts in the bucket on S3,
 * so an upload begun on one server process can finish on another). Approved teachers only; each upload belongs to its creator (stored by
 * the server in the upload's metadata). Same size limit, disk check and ffprobe checks as `POST /api/upload`; the
 * last byte turns it into a video (its id is the upload's id) through the same `acceptUpload`, and
 * `GET /api/uploads/{id}` then answers what `POST /api/upload` answers. A browser recording (`recording` = `1`) may
 * defer its length to its last PATCH (docs/video-pipeline.md, "Recording in the browser").
 */
export function resumableUploadRoutes(deps: AppDeps) {
  const { config, db, storage } = deps;
  const resumable = storage.resumable();
  const datastore = resumable.tus;
  // The signed-in user of each request tus hands back to our hooks.
  const users = new WeakMap<Request, User>();
  // …and its context, for answers in the person's language.
  const contexts = new WeakMap<Request, Context>();
  const userOf = (request: Request) => {
    const user = users.get(request);
    const c = contexts.get(request);
    if (!user || !c)
      throw { status_code: 401, body: JSON.stringify({ error: 'Please sign in.', code: 'unauthorized' }) };
    return { user, c };
  };
  const refuse = (c: Context, error: ApiError) => ({
    status_code: error.status,
    body: JSON.stringify(errorBody(c, error.code, error.message as MessageKey, error.extra, error.values)),
  });
  // A recording made in the browser (metadata `recording` = `1`): its length is told by its last PATCH.
  const isRecording = (upload: Upload) => upload.metadata?.recording === '1';
  // A recording makes only the video; its topic is made when the teacher saves it (POST /api/lectures).
  const targetOf = (upload: Upload) =>
    isRecording(upload)
      ? {}
      : {
          courseId: upload.metadata?.courseId ?? undefined,
          nameOfTopic: upload.metadata?.nameOfTopic ?? undefined,
          lectureId: upload.metadata?.lectureId ?? undefined,
        };

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
      const { user, c } = userOf(request as unknown as Request);
      try {
        if (upload.size === undefined && !isRecording(upload)) {
          throw new ApiError(400, 'length_required', 'errors.tusLengthRequired');
        }
        if (upload.size !== undefined && upload.size > config.maxUploadBytes) throw tooLarge(config.maxUploadBytes);
        if (Object.values(upload.metadata ?? {}).some((value) => value?.includes('\0'))) {
          throw new ApiError(400, 'invalid_upload_metadata', 'errors.uploadDetailsHidden');
        }
        checkDiskRoom(config, upload.size ?? 0);
        if (isRecording(upload)) await checkRecordingTarget(deps, user, upload.metadata?.courseId);
        else await checkUploadTarget(deps, user, targetOf(upload));
      } catch (error) {
        if (error instanceof ApiError) throw refuse(c, error);
        throw error;
      }
      // The owner is the server's word, whatever metadata the client sent.
      return { metadata: { ...upload.metadata, owner: user.id } };
    },
    async onIncomingRequest(request, uploadId) {
      const { user, c } = userOf(request as unknown as Request);
      // A creation names the id it is about to make: onUploadCreate checks that one.
      if (request.method === 'POST') return;
      const upload = await datastore.getUpload(uploadId).catch(() => undefined);
      if (!upload || upload.metadata?.owner !== user.id) throw refuse(c, uploadGone());
      // A recording's size is not known ahead: each piece is checked against the free disk as it comes.
      if (request.method === 'PATCH' && isRecording(upload)) {
        try {
          checkDiskRoom(config, Number(request.headers.get('content-length')) || 0);
        } catch (error) {
          if (error instanceof ApiError) throw refuse(c, error);
          throw error;
        }
      }
    },
    async onUploadFinish(request, upload) {
      const { user, c } = userOf(request as unknown as Request);
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
          maxMinutes: isRecording(upload) ? config.maxRecordingMinutes : undefined,
        });
        return {};
      } catch (error) {
        if (error instanceof ApiError) throw refuse(c, error);
        throw error;
      } finally {
        file?.release();
        await resumable.forget(upload.id);
      }
    },
    onResponseError(request, error) {
      // tus answers its own refusals in plain text: give every client our one error shape.
      if ('status_code' in error && error.body.startsWith('{')) return error;
      const status = 'status_code' in error ? error.status_code : 500;
      const text = 'status_code' in error ? error.body : '';
      const c = contexts.get(request as unknown as Request);
      const body = c
        ? tusRefusal(c, status, text, config.maxUploadBytes)
        : { error: 'The upload was refused.', code: 'upload_refused' };
      return { status_code: status, body: JSON.stringify(body) };
    },
  });

  const handle = async (c: Context<AppEnv>) => {
    users.set(c.req.raw, c.get('user'));
    contexts.set(c.req.raw, c);
    const response = await tus.handleWeb(c.req.raw);
    if (response.status < 400 || c.req.method === 'HEAD') return response;
    // Some refusals (a missing Tus-Resumable, a malformed header) are written before onResponseError is asked.
    const text = await response.text();
    const body = text.startsWith('{')
      ? text
      : JSON.stringify(tusRefusal(c, response.status, text, config.maxUploadBytes));
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
            throw new ApiError(409, 'upload_incomplete', 'errors.uploadIncomplete', {
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
