import { existsSync, statfsSync } from 'node:fs';
import { z } from 'zod';
import { onlyTheTeacher, taughtCourse, taughtLecture } from '../auth/access';
import { toLectureJson } from '../contract/lectures';
import { topicName } from '../contract/text';
import { toVideoJson, type UploadJson } from '../contract/videos';
import { createLecture, updateLecture } from '../db/queries/lectures';
import type { User } from '../db/schema';
import type { AppDeps } from '../deps';
import { ApiError, badRequest } from '../errors';
import { idSchema, invalidInput } from '../http/validation';
import { newId } from '../lib/ids';
import { sourceKey } from '../storage/keys';
import { planLadder } from './ladder';
import { describeSource } from './probe';
import { createQueuedVideo } from './state';
import { deleteUnreferencedVideos } from './videos';

/**
 * Where a finished upload goes, besides becoming a video: a new topic of a class (`courseId` + `nameOfTopic`, as
 * the current open-source client sends them) or the new video of an existing topic (`lectureId`, from the upload
 * tray). Both optional; a plain upload only makes the video.
 */
export const uploadTarget = z
  .object({
    courseId: idSchema.optional(),
    nameOfTopic: topicName.optional(),
    lectureId: idSchema.optional(),
  })
  .refine((target) => !target.lectureId || (!target.courseId && !target.nameOfTopic), {
    message: 'fields.lectureOrCourse',
  });
export type UploadTarget = z.infer<typeof uploadTarget>;

export type UploadAnswer = UploadJson;

export const tooLarge = (maxBytes: number) =>
  new ApiError(413, 'too_large', 'errors.videoOverLimit', {}, { size: formatBytes(maxBytes) });

function formatBytes(bytes: number) {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1).replace(/\.0$/, '')} GB`
    : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/**
 * 507 when taking `incomingBytes` more would leave less than the configured minimum free, on the disk that receives
 * them: the scratch folder (with S3 the bytes pass through it; by default it is on DATA_DIR's disk).
 */
export function checkDiskRoom(config: AppDeps['config'], incomingBytes: number) {
  const disk = statfsSync(existsSync(config.scratchDir) ? config.scratchDir : config.dataDir);
  if (disk.bavail * disk.bsize - incomingBytes < config.minFreeDiskBytes) {
    throw new ApiError(507, 'disk_full', 'errors.diskFull');
  }
}

/** A recording made in the browser belongs to a class its maker teaches; anyone else is refused (403) alike. */
export async function checkRecordingTarget(deps: AppDeps, user: User, courseId: unknown) {
  const parsed = idSchema.safeParse(courseId);
  if (!parsed.success) throw invalidInput(parsed.error.issues, 'courseId');
  try {
    await taughtCourse(deps.db, user, parsed.data);
  } catch (error) {
    // A class that is not theirs and one that does not exist answer the same.
    if (error instanceof ApiError) throw onlyTheTeacher();
    throw error;
  }
}

/** A recording may run over MAX_RECORDING_MINUTES by this much (the recorder stops itself at the limit). */
export const RECORDING_GRACE_MS = 30_000;

/** Checks the target before any byte is kept: a refused target must leave nothing behind. */
export async function checkUploadTarget(deps: AppDeps, user: User, raw: unknown): Promise<UploadTarget> {
  const parsed = uploadTarget.safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error.issues, 'upload');
  const target = parsed.data;
  if (target.courseId && !target.nameOfTopic) {
    throw badRequest('invalid_input', 'fields.topicNameRequired', {
      fields: { nameOfTopic: 'fields.topicNameRequired' },
    });
  }
  if (target.courseId) await taughtCourse(deps.db, user, target.courseId);
  if (target.lectureId) await taughtLecture(deps.db, user, target.lectureId);
  return target;
}

/**
 * The one way a received file becomes a video, for `POST /api/upload` and the resumable `/api/uploads`: ffprobe
 * checks it, storage keeps it, a transcode job is queued, and the target topic is made or given the video.
 * The caller removes its temp file afterwards, whatever happens.
 */
export async function acceptUpload(
  deps: AppDeps,
  input: {
    user: User;
    path: string;
    fileName: string;
    bytes: number;
    target: UploadTarget;
    videoId?: string;
    /** A recording's longest length (MAX_RECORDING_MINUTES); longer is refused before anything is kept. */
    maxMinutes?: number;
  },
): Promise<UploadAnswer> {
  const { config, db, storage, jobs } = deps;
  // The target may have changed while the bytes travelled (a class deleted): check again before keeping anything.
  const target = await checkUploadTarget(deps, input.user, input.target);
  const source = await describeSource(config, input.path).catch(() => {
    // Only a missing or broken ffprobe makes the probe itself throw.
    throw new ApiError(503, 'video_tools_missing', 'errors.videoToolsMissing');
  });
  if ('refused' in source) throw badRequest('not_a_video', source.refused, {}, source.values);
  if (input.maxMinutes !== undefined && source.durationMs > input.maxMinutes * 60_000 + RECORDING_GRACE_MS) {
    throw new ApiError(413, 'recording_too_long', 'errors.recordingTooLong', {}, { minutes: input.maxMinutes });
  }
  const id = input.videoId ?? newId();
  await storage.putFile(sourceKey(id), input.path);
  const video = await createQueuedVideo(db, {
    id,
    ownerId: input.user.id,
    // A file name is the sender's word: no control characters (PostgreSQL cannot store a NUL).
    sourceName: input.fileName.replace(/\p{Cc}/gu, '').slice(0, 255) || 'video',
    sourceBytes: input.bytes,
    source,
    plan: planLadder(source),
  }).catch(async (error) => {
    await storage.delete(sourceKey(id));
    throw error;
  });
  jobs.wake();
  const json = toVideoJson(video);
  const answer: UploadAnswer = { masterPlaylist: json.masterPlaylist, videoId: id, video: json };
  if (target.courseId && target.nameOfTopic) {
    const lecture = await createLecture(db, {
      courseId: target.courseId,
      nameOfTopic: target.nameOfTopic,
      videoId: id,
    });
    answer.lectureId = lecture.id;
    answer.processingStatus = toLectureJson(lecture, video).processingStatus ?? undefined;
  } else if (target.lectureId) {
    const lecture = await taughtLecture(db, input.user, target.lectureId);
    await updateLecture(db, lecture.id, { nameOfTopic: lecture.nameOfTopic, videoId: id });
    await deleteUnreferencedVideos(deps, [lecture.videoId]);
    answer.lectureId = lecture.id;
    answer.processingStatus = toLectureJson(lecture, video).processingStatus ?? undefined;
  }
  return answer;
}
