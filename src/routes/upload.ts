import { rmSync } from 'node:fs';
import { Hono } from 'hono';
import { requireApprovedTeacher, requireUser } from '../auth/middleware';
import { uploadJson } from '../contract/videos';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { answers, multipartBody } from '../http/openapi';
import { acceptUpload, checkDiskRoom, tooLarge } from '../media/accept-upload';
import { receiveUpload } from '../media/receive-upload';
import { tempDir } from '../storage/keys';

// Room for the multipart boundaries and headers around the file.
const MULTIPART_OVERHEAD = 64 * 1024;

export function uploadRoutes(deps: AppDeps) {
  const { config } = deps;
  const described = answers(
    { 201: uploadJson },
    {
      summary: 'Upload a lecture video (approved teachers)',
      description:
        'One-shot multipart upload; the answer names the video, which is transcoded by a job (and `lectureId` and ' +
        '`processingStatus` when a topic was named). Refused with 413 over ' +
        'the size limit, 507 when the disk is nearly full, 400 when ffprobe finds no video.',
      requestBody: multipartBody('uploadedFile', {
        courseId: 'With nameOfTopic: the topic is created in this class.',
        nameOfTopic: "The new topic's name.",
        lectureId: 'Instead: the topic whose video this replaces.',
      }),
    },
  );
  return new Hono<AppEnv>().post('/', described, requireUser(deps), requireApprovedTeacher, async (c) => {
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > config.maxUploadBytes + MULTIPART_OVERHEAD) {
      throw tooLarge(config.maxUploadBytes);
    }
    checkDiskRoom(config, Number.isFinite(declared) ? declared : 0);
    const upload = await receiveUpload(c.req.raw, {
      field: 'uploadedFile',
      maxBytes: config.maxUploadBytes,
      tempDir: tempDir(config.scratchDir),
    }).catch((error) => {
      throw error instanceof ApiError && error.status === 413 ? tooLarge(config.maxUploadBytes) : error;
    });
    try {
      const { courseId, nameOfTopic, lectureId } = upload.fields;
      const target = { courseId, nameOfTopic, lectureId };
      const answer = await acceptUpload(deps, { user: c.get('user'), ...upload, target });
      return c.json(answer, 201);
    } finally {
      rmSync(upload.path, { force: true });
    }
  });
}
