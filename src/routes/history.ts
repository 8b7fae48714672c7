import { and, desc, eq, or, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { requireUser } from '../auth/middleware';
import { courses, enrollments, lectures, videos, watchProgress } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';

const HISTORY_LIMIT = 200;

/** Not in the spec: what the user watched, newest first, with how far they got. */
export function historyRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>().get('/', requireUser(deps), (c) => {
    const user = c.get('user');
    const rows = db
      .select({
        progress: watchProgress,
        lectureId: lectures.id,
        nameOfTopic: lectures.nameOfTopic,
        courseId: courses.id,
        courseName: courses.courseName,
        videoId: videos.id,
        hasPoster: videos.hasPoster,
      })
      .from(watchProgress)
      .innerJoin(lectures, eq(lectures.id, watchProgress.lectureId))
      .innerJoin(courses, eq(courses.id, lectures.courseId))
      .leftJoin(videos, eq(videos.id, lectures.videoId))
      .where(
        and(
          eq(watchProgress.userId, user.id),
          // Only classes the user can still read: their own, or ones they are still enrolled in.
          or(
            eq(courses.teacherId, user.id),
            sql`exists (select 1 from ${enrollments} where ${enrollments.courseId} = ${courses.id} and ${enrollments.studentId} = ${user.id})`,
          ),
        ),
      )
      .orderBy(desc(watchProgress.updatedAt))
      .limit(HISTORY_LIMIT)
      .all();
    return c.json(
      rows.map((row) => ({
        lectureId: row.lectureId,
        nameOfTopic: row.nameOfTopic,
        courseId: row.courseId,
        courseName: row.courseName,
        posterUrl: row.videoId && row.hasPoster ? `/media/videos/${row.videoId}/poster.jpg` : null,
        position: row.progress.positionSeconds,
        duration: row.progress.durationSeconds,
        watchedPercent: row.progress.durationSeconds
          ? Math.min(100, Math.round((row.progress.furthestSeconds / row.progress.durationSeconds) * 100))
          : 0,
        completed: row.progress.completed,
        watchedAt: new Date(row.progress.updatedAt).toISOString(),
      })),
    );
  });
}
