import { z } from 'zod';
import type { WatchProgress } from '../db/schema';
import { LIMITS } from './limits';
import { idSchema, plainText } from './text';
import { isoTime, publicUserJson, toPublicUser } from './users';

export type CommentRow = {
  id: string;
  text: string;
  createdAt: number;
  userId: string;
  username: string;
  avatarVersion: number;
  /** The comment this one answers (a reply), or null. */
  parentId: string | null;
};

export const commentJson = z.object({
  _id: z.string(),
  text: z.string(),
  createdAt: isoTime,
  userId: publicUserJson,
  /** The comment this one answers (a reply), null for a top-level comment. */
  parentId: z.string().nullable(),
});
export type CommentJson = z.infer<typeof commentJson>;

export function toCommentJson(row: CommentRow): CommentJson {
  return {
    _id: row.id,
    text: row.text,
    createdAt: new Date(row.createdAt).toISOString(),
    userId: toPublicUser({ id: row.userId, username: row.username, avatarVersion: row.avatarVersion }),
    parentId: row.parentId ?? null,
  };
}

export const progressJson = z.object({
  position: z.number(),
  duration: z.number(),
  furthest: z.number(),
  completed: z.boolean(),
});
export type ProgressJson = z.infer<typeof progressJson>;

export function toProgressJson(row: WatchProgress): ProgressJson {
  return {
    position: row.positionSeconds,
    duration: row.durationSeconds,
    furthest: row.furthestSeconds,
    completed: row.completed,
  };
}

const watchedPercent = (row: Pick<WatchProgress, 'furthestSeconds' | 'durationSeconds'>) =>
  row.durationSeconds ? Math.min(100, Math.round((row.furthestSeconds / row.durationSeconds) * 100)) : 0;

/** The teacher's table: per lecture, who of the enrolled students started and finished it. */
export const courseProgressJson = z.object({
  students: z.array(publicUserJson),
  lectures: z.array(
    z.object({
      _id: z.string(),
      nameOfTopic: z.string(),
      started: z.number().int(),
      finished: z.number().int(),
      enrolled: z.number().int(),
      watchers: z.array(
        z.object({
          studentId: z.string(),
          watchedPercent: z.number(),
          completed: z.boolean(),
          updatedAt: isoTime,
        }),
      ),
    }),
  ),
});
export type CourseProgressJson = z.infer<typeof courseProgressJson>;

export function toCourseProgressJson(
  students: { id: string; username: string; avatarVersion: number }[],
  lectures: { id: string; nameOfTopic: string }[],
  progress: WatchProgress[],
): CourseProgressJson {
  return {
    students: students.map((student) => toPublicUser(student)),
    lectures: lectures.map((lecture) => {
      const rows = progress.filter((row) => row.lectureId === lecture.id);
      return {
        _id: lecture.id,
        nameOfTopic: lecture.nameOfTopic,
        started: rows.length,
        finished: rows.filter((row) => row.completed).length,
        enrolled: students.length,
        watchers: rows.map((row) => ({
          studentId: row.userId,
          watchedPercent: watchedPercent(row),
          completed: row.completed,
          updatedAt: new Date(row.updatedAt).toISOString(),
        })),
      };
    }),
  };
}

export type HistoryRow = {
  progress: WatchProgress;
  lectureId: string;
  nameOfTopic: string;
  courseId: string;
  courseName: string;
  posterUrl: string | null;
};

export const historyEntryJson = z.object({
  lectureId: z.string(),
  nameOfTopic: z.string(),
  courseId: z.string(),
  courseName: z.string(),
  posterUrl: z.string().nullable(),
  position: z.number(),
  duration: z.number(),
  watchedPercent: z.number(),
  completed: z.boolean(),
  watchedAt: isoTime,
});
export type HistoryEntryJson = z.infer<typeof historyEntryJson>;

export function toHistoryJson(row: HistoryRow): HistoryEntryJson {
  return {
    lectureId: row.lectureId,
    nameOfTopic: row.nameOfTopic,
    courseId: row.courseId,
    courseName: row.courseName,
    posterUrl: row.posterUrl,
    position: row.progress.positionSeconds,
    duration: row.progress.durationSeconds,
    watchedPercent: watchedPercent(row.progress),
    completed: row.progress.completed,
    watchedAt: new Date(row.progress.updatedAt).toISOString(),
  };
}

/** Likes and views answers. */
export const likesJson = z.object({ noOfLikes: z.number().int(), liked: z.boolean() });
export const viewsJson = z.object({ noOfViews: z.number().int(), counted: z.boolean() });
export type LikesJson = z.infer<typeof likesJson>;
export type ViewsJson = z.infer<typeof viewsJson>;

/** A comment, or a reply (`parentId`). */
export const commentBody = z.object({
  text: plainText({
    required: 'fields.commentRequired',
    tooShort: 'fields.commentBlank',
    tooLong: 'fields.commentTooLong',
    min: 1,
    max: LIMITS.commentMax,
    hidden: 'fields.commentHidden',
    multiline: true,
  }),
  /** The comment this one answers (a reply): its author is told by email (src/notifications). */
  parentId: idSchema.optional(),
});
