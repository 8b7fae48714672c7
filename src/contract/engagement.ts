import type { WatchProgress } from '../db/schema';
import { toPublicUser } from './users';

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

export function toCommentJson(row: CommentRow) {
  return {
    _id: row.id,
    text: row.text,
    createdAt: new Date(row.createdAt).toISOString(),
    userId: toPublicUser({ id: row.userId, username: row.username, avatarVersion: row.avatarVersion }),
    /** The comment this one answers (a reply), null for a top-level comment. */
    parentId: row.parentId ?? null,
  };
}

export function toProgressJson(row: WatchProgress) {
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
export function toCourseProgressJson(
  students: { id: string; username: string; avatarVersion: number }[],
  lectures: { id: string; nameOfTopic: string }[],
  progress: WatchProgress[],
) {
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

export function toHistoryJson(row: HistoryRow) {
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

export type CommentJson = ReturnType<typeof toCommentJson>;
export type ProgressJson = ReturnType<typeof toProgressJson>;
export type CourseProgressJson = ReturnType<typeof toCourseProgressJson>;
export type HistoryEntryJson = ReturnType<typeof toHistoryJson>;
/** Likes and views answers. */
export type LikesJson = { noOfLikes: number; liked: boolean };
export type ViewsJson = { noOfViews: number; counted: boolean };
export type MessageJson = { message: string };
