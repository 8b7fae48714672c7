import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { emit } from '../../events/events';
import type { Db } from '../client';
import {
  enrollments,
  jobs,
  lectureQuestions,
  lectures,
  ltiContexts,
  ltiPlatforms,
  ltiResourceLinks,
  ltiScoresSent,
  userIdentities,
  users,
} from '../schema';
import { transaction } from '../transaction';

/**
 * The queries of the LTI Advantage services (src/lti/nrps.ts, src/lti/ags.ts, routes/lti-services.ts): a class's
 * LMS contexts and links, who of a class came from which LMS, and the scores already sent.
 */

/** A resource link with its platform and the context of its class on that platform (for the line items URL). */
export async function linkForScores(db: Db, linkId: string) {
  const [row] = await db
    .select({ link: ltiResourceLinks, platform: ltiPlatforms })
    .from(ltiResourceLinks)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiResourceLinks.platformId))
    .where(eq(ltiResourceLinks.id, linkId))
    .limit(1);
  if (!row) return undefined;
  const [context] = await db
    .select()
    .from(ltiContexts)
    .where(
      and(
        eq(ltiContexts.platformId, row.link.platformId),
        eq(ltiContexts.courseId, row.link.courseId),
        isNotNull(ltiContexts.lineitemsUrl),
      ),
    )
    .limit(1);
  return { ...row, context };
}

/**
 * The links of a lecture whose platform knows this person (an identity with the platform's issuer): the links a
 * change of their coverage or answers may give a new score. One indexed query per report (a hot path).
 */
export async function gradedLinksOf(db: Db, lectureId: string, userId: string) {
  return db
    .select({ id: ltiResourceLinks.id })
    .from(ltiResourceLinks)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiResourceLinks.platformId))
    .innerJoin(userIdentities, and(eq(userIdentities.issuer, ltiPlatforms.issuer), eq(userIdentities.userId, userId)))
    .where(eq(ltiResourceLinks.lectureId, lectureId));
}

/** The person's subject at an issuer (their LTI `sub`, the `userId` of a score), if they have one. */
export async function subjectAt(db: Db, issuer: string, userId: string) {
  const [row] = await db
    .select({ subject: userIdentities.subject })
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.userId, userId)))
    .limit(1);
  return row?.subject;
}

/** Stores a link's new line item, unless another run stored one first; answers the one kept. */
export async function keepLineItem(db: Db, linkId: string, lineitemUrl: string) {
  await db
    .update(ltiResourceLinks)
    .set({ lineitemUrl })
    .where(and(eq(ltiResourceLinks.id, linkId), isNull(ltiResourceLinks.lineitemUrl)));
  const [row] = await db
    .select({ lineitemUrl: ltiResourceLinks.lineitemUrl })
    .from(ltiResourceLinks)
    .where(eq(ltiResourceLinks.id, linkId))
    .limit(1);
  return row?.lineitemUrl ?? lineitemUrl;
}

export async function lastScoreSent(db: Db, linkId: string, userId: string) {
  const [row] = await db
    .select({ scoreGiven: ltiScoresSent.scoreGiven })
    .from(ltiScoresSent)
    .where(and(eq(ltiScoresSent.resourceLinkRowId, linkId), eq(ltiScoresSent.userId, userId)))
    .limit(1);
  return row?.scoreGiven;
}

export async function recordScoreSent(db: Db, linkId: string, userId: string, scoreGiven: number, now = Date.now()) {
  await db
    .insert(ltiScoresSent)
    .values({ resourceLinkRowId: linkId, userId, scoreGiven, sentAt: now })
    .onConflictDoUpdate({
      target: [ltiScoresSent.resourceLinkRowId, ltiScoresSent.userId],
      set: { scoreGiven, sentAt: now },
    });
}

/** A queued job of `type` about `subjectId` (the debounce: one waiting job is enough). */
export async function hasQueuedJob(db: Db, type: string, subjectId: string) {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.subjectId, subjectId), eq(jobs.type, type), eq(jobs.state, 'queued')))
    .limit(1);
  return row !== undefined;
}

/** The newest job of `type` about `subjectId`, any state (the roster sync's progress and result). */
export async function latestJob(db: Db, type: string, subjectId: string) {
  const [row] = await db
    .select({ id: jobs.id, state: jobs.state, lastError: jobs.lastError, finishedAt: jobs.finishedAt })
    .from(jobs)
    .where(and(eq(jobs.subjectId, subjectId), eq(jobs.type, type)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
  return row;
}

/** A class's LMS contexts with their platform. */
export async function contextsOfCourse(db: Db, courseId: string) {
  return db
    .select({ context: ltiContexts, platform: ltiPlatforms })
    .from(ltiContexts)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiContexts.platformId))
    .where(eq(ltiContexts.courseId, courseId))
    .orderBy(asc(ltiContexts.id));
}

/** The classes with a roster to pull (the daily sync). */
export async function coursesWithRosters(db: Db) {
  const rows = await db
    .selectDistinct({ courseId: ltiContexts.courseId })
    .from(ltiContexts)
    .where(isNotNull(ltiContexts.membershipsUrl));
  return rows.map((row) => row.courseId);
}

/** The class's enrolled students known to an issuer, with their subject there. */
export async function studentsFromIssuer(db: Db, courseId: string, issuer: string) {
  return db
    .select({ userId: enrollments.studentId, subject: userIdentities.subject })
    .from(enrollments)
    .innerJoin(userIdentities, and(eq(userIdentities.userId, enrollments.studentId), eq(userIdentities.issuer, issuer)))
    .where(eq(enrollments.courseId, courseId));
}

/** The class's links to one lecture, with the lecture's name and whether it has scored questions. */
export async function lectureLinksOfCourse(db: Db, courseId: string) {
  return db
    .select({
      id: ltiResourceLinks.id,
      lectureId: ltiResourceLinks.lectureId,
      nameOfTopic: lectures.nameOfTopic,
      scoreSource: ltiResourceLinks.scoreSource,
      lineitemUrl: ltiResourceLinks.lineitemUrl,
      questions: sql<number>`(select count(*) from ${lectureQuestions} where ${lectureQuestions.lectureId} = ${lectures.id})`,
    })
    .from(ltiResourceLinks)
    .innerJoin(lectures, eq(lectures.id, ltiResourceLinks.lectureId))
    .where(eq(ltiResourceLinks.courseId, courseId))
    .orderBy(asc(lectures.createdAt), asc(ltiResourceLinks.id));
}

/**
 * Sets a link's score source (a real change emits `lti-link-changed`: its students' grades follow); answers the link,
 * or undefined when it is not one of the class's.
 */
export async function setScoreSource(db: Db, courseId: string, linkId: string, scoreSource: 'watched' | 'questions') {
  return transaction(db, async (tx) => {
    const where = and(eq(ltiResourceLinks.id, linkId), eq(ltiResourceLinks.courseId, courseId));
    const [before] = await tx.select({ scoreSource: ltiResourceLinks.scoreSource }).from(ltiResourceLinks).where(where);
    if (!before) return undefined;
    if (before.scoreSource === scoreSource) return { id: linkId };
    await tx.update(ltiResourceLinks).set({ scoreSource }).where(where);
    await emit(tx, { type: 'lti-link-changed', linkId });
    return { id: linkId };
  });
}

/** The students of a link's class known to its platform (whose grade a change of the link may move). */
export async function gradedStudentsOfLink(db: Db, linkId: string) {
  return db
    .select({ userId: enrollments.studentId })
    .from(ltiResourceLinks)
    .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiResourceLinks.platformId))
    .innerJoin(enrollments, eq(enrollments.courseId, ltiResourceLinks.courseId))
    .innerJoin(
      userIdentities,
      and(eq(userIdentities.userId, enrollments.studentId), eq(userIdentities.issuer, ltiPlatforms.issuer)),
    )
    .where(and(eq(ltiResourceLinks.id, linkId), isNotNull(ltiResourceLinks.lectureId)));
}

/** The people of these subjects at an issuer, by subject. */
export async function usersBySubject(db: Db, issuer: string, subjects: string[]) {
  const found = new Map<string, { id: string; role: string }>();
  for (let start = 0; start < subjects.length; start += 500) {
    const rows = await db
      .select({ subject: userIdentities.subject, id: users.id, role: users.role })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(
        and(eq(userIdentities.issuer, issuer), inArray(userIdentities.subject, subjects.slice(start, start + 500))),
      );
    for (const row of rows) found.set(row.subject, { id: row.id, role: row.role });
  }
  return found;
}

export async function markRosterSynced(db: Db, contextRowId: string, now = Date.now()) {
  await db.update(ltiContexts).set({ lastRosterSyncAt: now }).where(eq(ltiContexts.id, contextRowId));
}
