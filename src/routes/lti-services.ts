import { Hono } from 'hono';
import { taughtCourse } from '../auth/access';
import { requireUser } from '../auth/middleware';
import {
  ltiCourseJson,
  ltiLinkBody,
  ltiLinkJson,
  ltiLinkParam,
  type RosterSyncJson,
  rosterSyncAnswer,
} from '../contract/lti-services';
import {
  contextsOfCourse,
  latestJob,
  lectureLinksOfCourse,
  setScoreSource,
  studentsFromIssuer,
} from '../db/queries/lti-services';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { enqueueRosterSync, rosterSubject } from '../lti/service-jobs';
import { LTI_SCOPES } from '../lti/service-token';

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

const syncJson = (job: NonNullable<Awaited<ReturnType<typeof latestJob>>>): RosterSyncJson => ({
  _id: job.id,
  state: job.state,
  error: job.state === 'done' ? null : job.lastError,
  finishedAt: iso(job.finishedAt),
});

const linkJson = (link: Awaited<ReturnType<typeof lectureLinksOfCourse>>[number]) => ({
  _id: link.id,
  lectureId: link.lectureId as string,
  nameOfTopic: link.nameOfTopic,
  scoreSource: link.scoreSource,
  hasQuestions: Number(link.questions) > 0,
  inGradebook: link.lineitemUrl !== null,
});

/**
 * A class's LMS services for its teacher (docs/lti.md, "Rosters" and "Grades"): what is linked, the roster sync
 * (a job) and each placed lecture's grade source. Under /api/courses; only the class's teacher (a student 403, anyone
 * else the class's 404).
 */
export function ltiServicesRoutes(deps: AppDeps) {
  const { db, jobs } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get('/:id/lti', answers({ 200: ltiCourseJson }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      const contexts = await contextsOfCourse(db, course.id);
      const lmsStudents = new Set<string>();
      for (const issuer of new Set(contexts.map(({ platform }) => platform.issuer))) {
        for (const student of await studentsFromIssuer(db, course.id, issuer)) lmsStudents.add(student.userId);
      }
      const job = await latestJob(db, 'lti-roster-sync', rosterSubject(course.id));
      return c.json(
        {
          contexts: contexts.map(({ context, platform }) => ({
            _id: context.id,
            platformName: platform.name,
            title: context.title,
            roster: context.membershipsUrl !== null,
            gradebook:
              context.lineitemsUrl !== null &&
              (JSON.parse(context.agsScopes) as string[]).includes(LTI_SCOPES.lineItem),
            lastRosterSyncAt: iso(context.lastRosterSyncAt),
          })),
          lmsStudents: lmsStudents.size,
          rosterSync: job ? syncJson(job) : null,
          links: (await lectureLinksOfCourse(db, course.id)).map(linkJson),
        },
        200,
      );
    })

    .post('/:id/lti/roster-sync', answers({ 202: rosterSyncAnswer }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      const contexts = await contextsOfCourse(db, course.id);
      if (!contexts.some(({ context }) => context.membershipsUrl !== null)) {
        throw new ApiError(409, 'lti_no_roster', 'errors.ltiNoRoster');
      }
      // A sync already waiting is the one the teacher asked for again.
      if (await enqueueRosterSync(db, course.id)) jobs.wake();
      const job = await latestJob(db, 'lti-roster-sync', rosterSubject(course.id));
      if (!job) throw new Error('The roster sync job vanished');
      return c.json({ job: syncJson(job) }, 202);
    })

    .patch(
      '/:id/lti/links/:linkId',
      answers({ 200: ltiLinkJson }),
      validate('param', ltiLinkParam),
      validate('json', ltiLinkBody),
      async (c) => {
        const { id, linkId } = c.req.valid('param');
        const course = await taughtCourse(db, c.get('user'), id);
        const updated = await setScoreSource(db, course.id, linkId, c.req.valid('json').scoreSource);
        const link = updated && (await lectureLinksOfCourse(db, course.id)).find((each) => each.id === updated.id);
        if (!link) throw notFound('lti_link_not_found', 'errors.ltiLinkNotFound');
        return c.json(linkJson(link), 200);
      },
    );
}
