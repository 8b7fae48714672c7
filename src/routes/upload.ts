import { rmSync, statfsSync } from 'node:fs';
import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import { requireApprovedTeacher, requireUser } from '../auth/middleware';
import { toVideoJson } from '../contract/videos';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest } from '../errors';
import { newId } from '../lib/ids';
import { planLadder } from '../media/ladder';
import { describeSource } from '../media/probe';
import { receiveUpload } from '../media/receive-upload';
import { createQueuedVideo } from '../media/state';
import { sourceKey, tempDir } from '../storage/keys';

// Room for the multipart boundaries and headers around the file.
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'too_large', `This video is larger than the upload limit of ${formatBytes(maxBytes)}.`);

function formatBytes(bytes: number) {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, '')} GB`
    : `${Math.round(bytes / 1024 ** 2)} MB`;
}

export function uploadRoutes(deps: AppDeps) {
  const { config, db, storage, jobs } = deps;
  const described = describeRoute({
    summary: 'Upload a lecture video (approved teachers)',
    description:
      'One-shot multipart upload; the answer names the video, which is transcoded by a job. Refused with 413 over ' +
      'the size limit, 507 when the disk is nearly full, 400 when ffprobe finds no video.',
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['uploadedFile'],
            properties: { uploadedFile: { type: 'string', format: 'binary' } },
          },
        },
      },
    },
  });
  return new Hono<AppEnv>().post('/', described, requireUser(deps), requireApprovedTeacher, async (c) => {
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > config.maxUploadBytes + MULTIPART_OVERHEAD) {
      throw tooLarge(config.maxUploadBytes);
    }
    const disk = statfsSync(config.dataDir);
    const free = disk.bavail * disk.bsize;
    if (free - (Number.isFinite(declared) ? declared : 0) < config.minFreeDiskBytes) {
      throw new ApiError(507, 'disk_full', 'The server is running out of disk space. Please ask your administrator.');
    }

    const upload = await receiveUpload(c.req.raw, {
      field: 'uploadedFile',
      maxBytes: config.maxUploadBytes,
      tempDir: tempDir(config.dataDir),
    }).catch((error) => {
      throw error instanceof ApiError && error.status === 413 ? tooLarge(config.maxUploadBytes) : error;
    });

    try {
      const source = await describeSource(config, upload.path).catch(() => {
        // Only a missing or broken ffprobe makes the probe itself throw.
        throw new ApiError(
          503,
          'video_tools_missing',
          'Video processing is not available on this server. Please ask your administrator.',
        );
      });
      if ('refused' in source) throw badRequest('not_a_video', source.refused);
      const id = newId();
      await storage.putFile(sourceKey(id), upload.path);
      const video = await createQueuedVideo(db, {
        id,
        ownerId: c.get('user').id,
        sourceName: upload.fileName.slice(0, 255) || 'video',
        sourceBytes: upload.bytes,
        source,
        plan: planLadder(source),
      }).catch(async (error) => {
        await storage.delete(sourceKey(id));
        throw error;
      });
      jobs.wake();
      const json = toVideoJson(video);
      const base = config.publicUrl ?? '';
      return c.json({ masterPlaylist: `${base}${json.masterPlaylist}`, videoId: id, video: json }, 201);
    } finally {
      rmSync(upload.path, { force: true });
    }
  });
}
