import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { coverageOfLectures } from '../db/queries/insight';
import {
  gradedLinksOf,
  gradedStudentsOfLink,
  hasQueuedJob,
  keepLineItem,
  lastScoreSent,
  linkForScores,
  recordScoreSent,
  subjectAt,
} from '../db/queries/lti-services';
import { answersOfStudent, questionScores } from '../db/queries/questions';
import { lectures } from '../db/schema';
import { enqueueJob } from '../jobs/jobs';
import { hostOf, LTI_SCOPES, LtiServiceError, readCapped, serviceFetch } from './service-token';

/**
 * Grades (LTI Assignment and Grade Services; docs/lti.md, "Grades"). A lecture placed in the LMS gets a line item
 * (a gradebook column) in its context; a student's score for it is the percent watched or, when the teacher chose
 * so for the link, the question score. Scores go out through `lti-score` jobs, debounced per (link, person), with
 * the jobs' own retries; `lti_scores_sent` keeps the last value sent, so the same value never goes twice.
 */

export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
const LINEITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';
/** Reports come every 15 s while a student watches: one score job per (link, person) in this time at most. */
export const SCORE_DEBOUNCE_MS = 3_000;
/** A gradebook that is down is tried again this many times (backoff by the jobs module). */
const SCORE_ATTEMPTS = 6;

/**
 * A line item's scores URL: `/scores` goes after the path and the query stays after it (Moodle's line items are
 * `…/lineitem?type_id=2`, whose scores URL is `…/lineitem/scores?type_id=2`).
 */
export function scoresUrl(lineitemUrl: string) {
  const url = new URL(lineitemUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/scores`;
  return url.href;
}

/** The job subject of a (link, person): one waiting score job per pair. */
export const scoreSubject = (linkId: string, userId: string) => `lti-score.${linkId}.${userId}`;

/**
 * After a student's coverage or answers changed (a listener, in the writer's transaction): a score job per LMS link
 * of the lecture, a few seconds later, unless one is already waiting (it will read the newest figures).
 */
export async function scoreMayHaveChanged(tx: Db, lectureId: string, userId: string) {
  for (const link of await gradedLinksOf(tx, lectureId, userId)) await enqueueScore(tx, link.id, userId);
}

/** After a link's grade source changed: a score job for each of its students known to the LMS. */
export async function linkScoresMayHaveChanged(tx: Db, linkId: string) {
  for (const student of await gradedStudentsOfLink(tx, linkId)) await enqueueScore(tx, linkId, student.userId);
}

async function enqueueScore(tx: Db, linkId: string, userId: string) {
  const subjectId = scoreSubject(linkId, userId);
  if (await hasQueuedJob(tx, 'lti-score', subjectId)) return;
  await enqueueJob(
    tx,
    'lti-score',
    { linkId, userId },
    { subjectId, delayMs: SCORE_DEBOUNCE_MS, maxAttempts: SCORE_ATTEMPTS },
  );
}

/** The score of a person for a link's lecture, out of 100, with the progress words AGS asks for. */
export async function scoreFor(
  db: Db,
  link: { lectureId: string; courseId: string; scoreSource: 'watched' | 'questions' },
  userId: string,
) {
  const coverage = (await coverageOfLectures(db, userId, [link.lectureId])).get(link.lectureId);
  // Someone who neither played nor answered has no grade yet (not a 0 in the gradebook).
  const started = coverage !== undefined || (await answersOfStudent(db, link.lectureId, userId)).size > 0;
  if (link.scoreSource === 'questions') {
    const scoreOf = await questionScores(db, link.courseId, [userId]);
    const score = scoreOf(userId, link.lectureId);
    // A lecture without scored questions (all removed since) is graded by what was watched.
    if (score) {
      return {
        started,
        scoreGiven: score.percent,
        activityProgress: score.right === score.total ? 'Completed' : 'InProgress',
      };
    }
  }
  return {
    started,
    scoreGiven: coverage?.percent ?? 0,
    activityProgress: coverage?.completed ? 'Completed' : 'InProgress',
  };
}

/** The link's line item, made in the context's gradebook when it has none yet (undefined: no gradebook). */
async function lineItemOf(db: Db, found: NonNullable<Awaited<ReturnType<typeof linkForScores>>>) {
  const { link, platform, context } = found;
  if (link.lineitemUrl) return link.lineitemUrl;
  if (!context?.lineitemsUrl || !link.lectureId) return undefined;
  const scopes = JSON.parse(context.agsScopes) as string[];
  if (!scopes.includes(LTI_SCOPES.lineItem)) return undefined;
  const [lecture] = await db
    .select({ nameOfTopic: lectures.nameOfTopic })
    .from(lectures)
    .where(eq(lectures.id, link.lectureId))
    .limit(1);
  const response = await serviceFetch(db, platform, [LTI_SCOPES.lineItem], context.lineitemsUrl, {
    method: 'POST',
    headers: { 'content-type': LINEITEM_MEDIA_TYPE, accept: LINEITEM_MEDIA_TYPE },
    body: JSON.stringify({
      scoreMaximum: 100,
      label: lecture?.nameOfTopic ?? 'Lecture',
      resourceLinkId: link.resourceLinkId,
      resourceId: link.lectureId,
      tag: 'classroom',
    }),
  });
  const text = await readCapped(response, 256 * 1024);
  if (!response.ok) {
    throw new LtiServiceError(
      `The LMS at ${hostOf(context.lineitemsUrl)} refused to make a gradebook column (HTTP ${response.status}).`,
      response.status,
    );
  }
  const id = (JSON.parse(text) as { id?: unknown }).id;
  if (typeof id !== 'string' || !URL.canParse(id)) {
    throw new LtiServiceError(`The LMS at ${hostOf(context.lineitemsUrl)} gave a gradebook column without an id.`, 0);
  }
  return keepLineItem(db, link.id, id);
}

export type ScoreOutcome = 'sent' | 'unchanged' | 'not-graded';

/**
 * The `lti-score` job: sends the person's score for the link, unless it is the value sent last. A refusal or a
 * platform that does not answer throws, and the jobs module tries again later.
 */
export async function sendScore(db: Db, linkId: string, userId: string, now = Date.now()): Promise<ScoreOutcome> {
  const found = await linkForScores(db, linkId);
  if (!found?.link.lectureId) return 'not-graded';
  const { link, platform } = found;
  const subject = await subjectAt(db, platform.issuer, userId);
  if (!subject) return 'not-graded';
  const score = await scoreFor(db, { ...link, lectureId: link.lectureId as string }, userId);
  const last = await lastScoreSent(db, link.id, userId);
  if (last === score.scoreGiven || (last === undefined && !score.started)) return 'unchanged';
  const lineitemUrl = await lineItemOf(db, found);
  if (!lineitemUrl) return 'not-graded';
  const response = await serviceFetch(db, platform, [LTI_SCOPES.score], scoresUrl(lineitemUrl), {
    method: 'POST',
    headers: { 'content-type': SCORE_MEDIA_TYPE },
    body: JSON.stringify({
      userId: subject,
      scoreGiven: score.scoreGiven,
      scoreMaximum: 100,
      activityProgress: score.activityProgress,
      // Moodle keeps a grade only when it is FullyGraded: the percent so far is the grade so far.
      gradingProgress: 'FullyGraded',
      timestamp: new Date(now).toISOString(),
    }),
  });
  await response.body?.cancel();
  if (!response.ok) {
    throw new LtiServiceError(
      `The LMS gradebook at ${hostOf(lineitemUrl)} refused the score (HTTP ${response.status}).`,
      response.status,
    );
  }
  await recordScoreSent(db, link.id, userId, score.scoreGiven, now);
  return 'sent';
}
