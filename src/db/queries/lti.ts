import { and, asc, eq } from 'drizzle-orm';
import { newId } from '../../lib/ids';
import type { Db } from '../client';
import { isUniqueViolation } from '../dialect';
import {
  courses,
  type LtiContext,
  lectureQuestions,
  lectures,
  ltiContexts,
  ltiPlatforms,
  ltiResourceLinks,
} from '../schema';
import { transaction } from '../transaction';
import { createCourse, enroll } from './courses';

/** What a launch says about the LMS course's services (NRPS, AGS); undefined leaves a stored value as it was. */
export type ContextServices = {
  title: string | undefined;
  membershipsUrl: string | undefined;
  lineitemsUrl: string | undefined;
  agsScopes: string[] | undefined;
};

export async function contextOf(db: Db, platformId: string, contextId: string) {
  const [row] = await db
    .select()
    .from(ltiContexts)
    .where(and(eq(ltiContexts.platformId, platformId), eq(ltiContexts.contextId, contextId)))
    .limit(1);
  return row;
}

const servicesSet = (services: ContextServices) => ({
  ...(services.title !== undefined && { title: services.title }),
  ...(services.membershipsUrl !== undefined && { membershipsUrl: services.membershipsUrl }),
  ...(services.lineitemsUrl !== undefined && { lineitemsUrl: services.lineitemsUrl }),
  ...(services.agsScopes !== undefined && { agsScopes: JSON.stringify(services.agsScopes) }),
});

/** Keeps the services a launch announced on the mapped context. */
export async function refreshContext(db: Db, contextRowId: string, services: ContextServices) {
  const set = servicesSet(services);
  if (Object.keys(set).length > 0) await db.update(ltiContexts).set(set).where(eq(ltiContexts.id, contextRowId));
}

/**
 * Maps an LMS course to a class: one of the teacher's (`courseId`) or a new one named after the LMS course. Two
 * first launches at once map it once: the second finds the first one's mapping (and its class).
 */
export async function mapContext(
  db: Db,
  values: { platformId: string; contextId: string; teacherId: string; courseId: string | 'new'; className: string },
  services: ContextServices,
): Promise<LtiContext> {
  try {
    return await transaction(db, async (tx) => {
      const courseId =
        values.courseId === 'new'
          ? (await createCourse(tx, { courseName: values.className, teacherId: values.teacherId, semester: null })).id
          : values.courseId;
      const [row] = await tx
        .insert(ltiContexts)
        .values({
          id: newId(),
          platformId: values.platformId,
          contextId: values.contextId,
          courseId,
          title: services.title ?? null,
          membershipsUrl: services.membershipsUrl ?? null,
          lineitemsUrl: services.lineitemsUrl ?? null,
          agsScopes: JSON.stringify(services.agsScopes ?? []),
        })
        .returning();
      return row as LtiContext;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const existing = await contextOf(db, values.platformId, values.contextId);
    if (!existing) throw error;
    return existing;
  }
}

/** Enrols a Learner in the class of the LMS course (again is nothing). */
export const enrollLearner = (db: Db, courseId: string, userId: string) => enroll(db, courseId, userId);

/**
 * The row of an LMS link: made at its first launch, its class, lecture (when deep linking chose one) and line
 * item kept up to date. A lecture of another class is never kept.
 */
export async function recordResourceLink(
  db: Db,
  values: {
    platformId: string;
    resourceLinkId: string;
    courseId: string;
    lectureId: string | undefined;
    lineitemUrl: string | undefined;
  },
) {
  const lectureId = values.lectureId && (await lectureInCourse(db, values.courseId, values.lectureId));
  const set = {
    courseId: values.courseId,
    ...(lectureId ? { lectureId } : {}),
    ...(values.lineitemUrl !== undefined && { lineitemUrl: values.lineitemUrl }),
  };
  // A new link grades by the question score when its lecture asks questions, else by the part watched.
  const asks = lectureId
    ? (
        await db
          .select({ id: lectureQuestions.id })
          .from(lectureQuestions)
          .where(eq(lectureQuestions.lectureId, lectureId))
          .limit(1)
      ).length > 0
    : false;
  const [row] = await db
    .insert(ltiResourceLinks)
    .values({
      id: newId(),
      platformId: values.platformId,
      resourceLinkId: values.resourceLinkId,
      courseId: values.courseId,
      lectureId: lectureId || null,
      lineitemUrl: values.lineitemUrl ?? null,
      scoreSource: asks ? 'questions' : 'watched',
    })
    .onConflictDoUpdate({ target: [ltiResourceLinks.platformId, ltiResourceLinks.resourceLinkId], set })
    .returning();
  return row;
}

/** The lecture's id when it is in the class, else undefined. */
export async function lectureInCourse(db: Db, courseId: string, lectureId: string) {
  const [row] = await db
    .select({ id: lectures.id })
    .from(lectures)
    .where(and(eq(lectures.id, lectureId), eq(lectures.courseId, courseId)))
    .limit(1);
  return row?.id;
}

/** A teacher's classes with their lectures, for the pickers. */
export async function classesWithLectures(db: Db, teacherId: string) {
  const rows = await db
    .select({
      courseId: courses.id,
      courseName: courses.courseName,
      lectureId: lectures.id,
      title: lectures.nameOfTopic,
    })
    .from(courses)
    .leftJoin(lectures, eq(lectures.courseId, courses.id))
    .where(eq(courses.teacherId, teacherId))
    .orderBy(asc(courses.courseName), asc(courses.id), asc(lectures.createdAt), asc(lectures.id));
  const byCourse = new Map<string, { id: string; courseName: string; lectures: { id: string; title: string }[] }>();
  for (const row of rows) {
    let course = byCourse.get(row.courseId);
    if (!course) {
      course = { id: row.courseId, courseName: row.courseName, lectures: [] };
      byCourse.set(row.courseId, course);
    }
    if (row.lectureId && row.title !== null) course.lectures.push({ id: row.lectureId, title: row.title });
  }
  return [...byCourse.values()];
}

/** At most this many framing origins are learned per LMS: a signed launch can add one, never flood the header. */
const MAX_FRAME_ORIGINS = 20;

/**
 * Remembers an origin the LMS's own pages frame us from, read from a signed launch's return URL (Canvas frames from
 * the school's host, which is neither its issuer nor its sign-in address).
 */
export async function rememberFrameOrigin(db: Db, platformId: string, origin: string) {
  const [row] = await db
    .select({ frameOrigins: ltiPlatforms.frameOrigins })
    .from(ltiPlatforms)
    .where(eq(ltiPlatforms.id, platformId))
    .limit(1);
  const known: string[] = row ? JSON.parse(row.frameOrigins) : [];
  if (!row || known.includes(origin) || known.length >= MAX_FRAME_ORIGINS) return;
  await db
    .update(ltiPlatforms)
    .set({ frameOrigins: JSON.stringify([...known, origin]) })
    .where(eq(ltiPlatforms.id, platformId));
}
