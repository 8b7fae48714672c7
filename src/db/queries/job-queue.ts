import { and, asc, desc, eq, inArray, notLike, or, sql } from 'drizzle-orm';
import type { QueueSubject } from '../../contract/job-queue';
import type { Db } from '../client';
import { nowMs } from '../dialect';
import { comments, courses, downloads, type Job, jobs, lectures, videos } from '../schema';

/** How many jobs the administrator's queue lists: the running ones, then the next to run, then the latest failures. */
const QUEUE_LENGTH = 50;
/** The types whose subject is a video (the job's `subject_id`). */
const VIDEO_JOBS = ['transcode', 'slides'];

type Topic = { lectureTitle: string; courseId: string; className: string };

/** A job's payload as an object, empty when it does not parse (a row is data). */
function payloadOf(job: Job): Record<string, unknown> {
  try {
    const payload = JSON.parse(job.payload) as unknown;
    return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The job queue as the administrator sees it: every type that runs, waits or failed, in that order (the waiting ones
 * in the order a worker will take them, as claimJob in src/jobs/jobs.ts does; failures newest first), and the
 * cancelled transcodes whose video still waits for a Retry or a delete. Each with its subject: the video (its file,
 * status, lecture and class) for processing, the slide index and an offline MP4; the lecture for a notification; how
 * many people a notification mail is for (never who). The periodic jobs' rows (cleanup, digests) are listed only
 * while they run: between runs they are a schedule, not work waiting.
 */
export async function jobQueue(db: Db) {
  const rows = await db
    .select({
      job: jobs,
      videoId: videos.id,
      fileName: videos.sourceName,
      videoStatus: videos.status,
      lectureTitle: lectures.nameOfTopic,
      courseId: courses.id,
      className: courses.courseName,
    })
    .from(jobs)
    .leftJoin(downloads, and(eq(jobs.type, 'download'), eq(downloads.id, jobs.subjectId)))
    .leftJoin(
      videos,
      or(eq(videos.id, downloads.videoId), and(inArray(jobs.type, VIDEO_JOBS), eq(videos.id, jobs.subjectId))),
    )
    .leftJoin(lectures, eq(lectures.videoId, videos.id))
    .leftJoin(courses, eq(courses.id, lectures.courseId))
    .where(
      or(
        and(eq(jobs.state, 'queued'), notLike(jobs.id, 'periodic-%')),
        inArray(jobs.state, ['running', 'failed']),
        and(eq(jobs.type, 'transcode'), eq(jobs.state, 'cancelled'), eq(videos.status, 'cancelled')),
      ),
    )
    .orderBy(
      asc(sql`case ${jobs.state} when 'running' then 0 when 'queued' then 1 when 'failed' then 2 else 3 end`),
      // Waiting: a due job is taken before one whose time has not come (a retry's back-off, a mail's rate)…
      asc(sql`case when ${jobs.state} = 'queued' and ${jobs.runAfter} > ${nowMs(db)} then 1 else 0 end`),
      // …then as claimJob picks: priority, then when it was due, then age.
      asc(sql`case when ${jobs.state} = 'queued' then ${jobs.priority} else 0 end`),
      asc(sql`case when ${jobs.state} = 'queued' then ${jobs.runAfter} else 0 end`),
      asc(sql`case when ${jobs.state} = 'queued' then ${jobs.createdAt} else 0 end`),
      desc(jobs.createdAt),
    )
    .limit(QUEUE_LENGTH);
  // A video is one lecture's; should two ever name it, the job is still listed once.
  const seen = new Set<string>();
  const listed = rows.filter((row) => !seen.has(row.job.id) && seen.add(row.job.id));

  // A notification's lecture is in its payload: the lecture itself, or the commented one.
  const notifyPayloads = listed
    .filter((row) => row.job.type === 'notify')
    .map((row) => ({ id: row.job.id, payload: payloadOf(row.job) }));
  const idsOf = (event: string) =>
    notifyPayloads
      .filter(({ payload }) => payload.event === event && typeof payload.subjectId === 'string')
      .map(({ payload }) => payload.subjectId as string);
  const topics = new Map<string, Topic>();
  const lectureIds = idsOf('lecture');
  const commentIds = idsOf('comment');
  const topicColumns = { lectureTitle: lectures.nameOfTopic, courseId: courses.id, className: courses.courseName };
  if (lectureIds.length) {
    const found = await db
      .select({ key: lectures.id, ...topicColumns })
      .from(lectures)
      .innerJoin(courses, eq(courses.id, lectures.courseId))
      .where(inArray(lectures.id, lectureIds));
    for (const { key, ...topic } of found) topics.set(key, topic);
  }
  if (commentIds.length) {
    const found = await db
      .select({ key: comments.id, ...topicColumns })
      .from(comments)
      .innerJoin(lectures, eq(lectures.id, comments.lectureId))
      .innerJoin(courses, eq(courses.id, lectures.courseId))
      .where(inArray(comments.id, commentIds));
    for (const { key, ...topic } of found) topics.set(key, topic);
  }

  return listed.map(({ job, ...video }) => {
    const payload = job.type === 'notify' || job.type === 'send-mail' ? payloadOf(job) : {};
    const topic = typeof payload.subjectId === 'string' ? topics.get(payload.subjectId) : undefined;
    const subject: QueueSubject = {
      ...video,
      // A deleted video's job still names it (a Retry answers that it is gone).
      videoId: VIDEO_JOBS.includes(job.type) ? job.subjectId : video.videoId,
      lectureTitle: topic?.lectureTitle ?? video.lectureTitle,
      courseId: topic?.courseId ?? video.courseId,
      className: topic?.className ?? video.className,
      recipients: job.type === 'send-mail' && Array.isArray(payload.ids) ? payload.ids.length : null,
    };
    return { job, subject };
  });
}
