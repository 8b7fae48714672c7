import { z } from 'zod';
import { idSchema } from './text';
import { isoTime } from './users';

/**
 * The teacher's LMS controls of a class (docs/lti.md, "Rosters" and "Grades"): its LMS courses, the roster sync and,
 * per lecture placed in the LMS, what its grade is. Pure zod, so the web imports it for its types.
 */

/** What a lecture's grade in the LMS is: the percent watched, or the question score. */
export const scoreSourceSchema = z.enum(['watched', 'questions']);
export type ScoreSource = z.infer<typeof scoreSourceSchema>;

/** `PATCH /api/courses/{id}/lti/links/{linkId}` */
export const ltiLinkBody = z.strictObject({ scoreSource: scoreSourceSchema });
export const ltiLinkParam = z.object({ id: idSchema, linkId: idSchema });

/** A roster sync job, as the teacher follows it. */
export const rosterSyncJson = z.object({
  _id: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  /** Why the last attempt failed, in the LMS's or our words (no secret). */
  error: z.string().nullable(),
  finishedAt: isoTime.nullable(),
});
export type RosterSyncJson = z.infer<typeof rosterSyncJson>;

export const ltiLinkJson = z.object({
  _id: z.string(),
  lectureId: z.string(),
  nameOfTopic: z.string(),
  scoreSource: scoreSourceSchema,
  /** The lecture has questions (the question score is a choice). */
  hasQuestions: z.boolean(),
  /** The LMS gradebook has its column. */
  inGradebook: z.boolean(),
});
export type LtiLinkJson = z.infer<typeof ltiLinkJson>;

/** `GET /api/courses/{id}/lti`: empty lists for a class no LMS course is linked to. */
export const ltiCourseJson = z.object({
  contexts: z.array(
    z.object({
      _id: z.string(),
      platformName: z.string(),
      title: z.string().nullable(),
      /** The LMS offers its roster (Names and Role Provisioning Services). */
      roster: z.boolean(),
      /** The LMS offers a gradebook (Assignment and Grade Services). */
      gradebook: z.boolean(),
      lastRosterSyncAt: isoTime.nullable(),
    }),
  ),
  /** The class's students who came from its LMS. */
  lmsStudents: z.number().int().min(0),
  /** The newest roster sync, if any. */
  rosterSync: rosterSyncJson.nullable(),
  links: z.array(ltiLinkJson),
});
export type LtiCourseJson = z.infer<typeof ltiCourseJson>;

/** `POST /api/courses/{id}/lti/roster-sync` → 202. */
export const rosterSyncAnswer = z.object({ job: rosterSyncJson });
