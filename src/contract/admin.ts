import { z } from 'zod';
import type { SnapshotManifest } from '../backup/snapshots';
import type { Course, Job, User } from '../db/schema';
import { courseJson, toCourseJson } from './courses';
import { isoTime, privateUserJson, toPrivateUser } from './users';
import { videoJson } from './videos';

/** A user as the administrator's list shows them. */
export const adminUserJson = privateUserJson.extend({
  disabled: z.boolean(),
  lastLoginAt: isoTime.nullable(),
  classes: z.number().int(),
});
export type AdminUserJson = z.infer<typeof adminUserJson>;

export function toAdminUserJson(user: User, classes: number): AdminUserJson {
  return {
    ...toPrivateUser(user),
    disabled: user.disabledAt !== null,
    lastLoginAt: user.lastLoginAt ? new Date(user.lastLoginAt).toISOString() : null,
    classes,
  };
}

export const adminCourseJson = courseJson.extend({
  students: z.number().int(),
  lectures: z.number().int(),
  storageBytes: z.number(),
});
export type AdminCourseJson = z.infer<typeof adminCourseJson>;

export function toAdminCourseJson(
  course: Course,
  teacher: string,
  counts: { students: number; lectures: number; storageBytes: number },
): AdminCourseJson {
  return { ...toCourseJson(course, { _id: course.teacherId, username: teacher }), ...counts };
}

export const queueEntryJson = z.object({
  _id: z.string(),
  type: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  videoId: z.string().nullable(),
  fileName: z.string().nullable(),
  videoStatus: videoJson.shape.status.nullable(),
  /** The topic and class the video is for (null before it has a topic). */
  lectureTitle: z.string().nullable(),
  courseId: z.string().nullable(),
  className: z.string().nullable(),
  createdAt: isoTime,
});
export type QueueEntryJson = z.infer<typeof queueEntryJson>;

export function toQueueEntryJson(
  job: Job,
  fileName: string | null,
  videoStatus: QueueEntryJson['videoStatus'],
  topic: { lectureTitle: string | null; courseId: string | null; className: string | null },
): QueueEntryJson {
  return {
    _id: job.id,
    type: job.type,
    state: job.state,
    attempts: job.attempts,
    lastError: job.lastError,
    videoId: job.subjectId,
    fileName,
    videoStatus,
    lectureTitle: topic.lectureTitle,
    courseId: topic.courseId,
    className: topic.className,
    createdAt: new Date(job.createdAt).toISOString(),
  };
}

/** A backup snapshot as the console lists it (without its file list). */
export const snapshotJson = z.object({
  name: z.string(),
  createdAt: z.string(),
  databaseBytes: z.number(),
  bytesAdded: z.number(),
  mediaBytesAdded: z.number(),
  bytesLinked: z.number(),
  mediaFiles: z.number().int(),
});
export type SnapshotJson = z.infer<typeof snapshotJson>;

export function toSnapshotJson({ files: _files, ...snapshot }: SnapshotManifest): SnapshotJson {
  return snapshot;
}

export const overviewJson = z.object({
  version: z.string(),
  disk: z.object({
    freeBytes: z.number(),
    totalBytes: z.number(),
    mediaBytes: z.number(),
    minFreeBytes: z.number(),
  }),
  queue: z.array(queueEntryJson),
  mail: z.object({ kind: z.enum(['smtp', 'log']), from: z.string() }),
  backups: z.object({
    dir: z.string().nullable(),
    everyHours: z.number().nullable(),
    keep: z.number().int(),
    snapshots: z.array(snapshotJson),
  }),
});
export type OverviewJson = z.infer<typeof overviewJson>;
