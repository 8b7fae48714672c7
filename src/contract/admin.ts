import type { SnapshotManifest } from '../backup/snapshots';
import type { Course, Job, User } from '../db/schema';
import { toCourseJson } from './courses';
import { toPrivateUser } from './users';

/** A user as the administrator's list shows them. */
export function toAdminUserJson(user: User, classes: number) {
  return {
    ...toPrivateUser(user),
    disabled: user.disabledAt !== null,
    lastLoginAt: user.lastLoginAt ? new Date(user.lastLoginAt).toISOString() : null,
    classes,
  };
}

export function toAdminCourseJson(
  course: Course,
  teacher: string,
  counts: { students: number; lectures: number; storageBytes: number },
) {
  return { ...toCourseJson(course, { _id: course.teacherId, username: teacher }), ...counts };
}

export function toQueueEntryJson(
  job: Job,
  fileName: string | null,
  videoStatus: string | null,
  topic: { lectureTitle: string | null; courseId: string | null; className: string | null },
) {
  return {
    _id: job.id,
    type: job.type,
    state: job.state,
    attempts: job.attempts,
    lastError: job.lastError,
    videoId: job.subjectId,
    fileName,
    videoStatus,
    /** The topic and class the video is for (null before it has a topic). */
    lectureTitle: topic.lectureTitle,
    courseId: topic.courseId,
    className: topic.className,
    createdAt: new Date(job.createdAt).toISOString(),
  };
}

export function toSnapshotJson({ files: _files, ...snapshot }: SnapshotManifest) {
  return snapshot;
}

export type AdminUserJson = ReturnType<typeof toAdminUserJson>;
export type AdminCourseJson = ReturnType<typeof toAdminCourseJson>;
export type QueueEntryJson = ReturnType<typeof toQueueEntryJson>;
export type SnapshotJson = ReturnType<typeof toSnapshotJson>;
export type OverviewJson = {
  version: string;
  disk: { freeBytes: number; totalBytes: number; mediaBytes: number; minFreeBytes: number };
  queue: QueueEntryJson[];
  mail: { kind: 'smtp' | 'log'; from: string };
  backups: { dir: string | null; everyHours: number | null; keep: number; snapshots: SnapshotJson[] };
};
