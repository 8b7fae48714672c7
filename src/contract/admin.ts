import { z } from 'zod';
import type { SnapshotManifest } from '../backup/snapshots';
import type { Course, User } from '../db/schema';
import { courseJson, toCourseJson } from './courses';
import { queueEntryJson } from './job-queue';
import { isoTime, privateUserJson, toPrivateUser } from './users';

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
