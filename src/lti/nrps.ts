import type { Config } from '../config';
import type { Db } from '../db/client';
import { enroll, removeStudent } from '../db/queries/courses';
import { contextsOfCourse, markRosterSynced, studentsFromIssuer, usersBySubject } from '../db/queries/lti-services';
import { classRoleOf } from './claims';
import { lmsAccount } from './people';
import { hostOf, LTI_SCOPES, LtiServiceError, readCapped, serviceFetch } from './service-token';

/**
 * Rosters (LTI Names and Role Provisioning Services; docs/lti.md, "Rosters"). A class linked to an LMS course pulls
 * that course's members: each Learner gets an account keyed by (issuer, `user_id`) through the same federated module
 * as a launch (never found by email) and is enrolled; a student who came from that LMS and is no longer a Learner
 * there leaves the class by the usual path (`removeStudent`, whose `student-left` deletes what was kept of them).
 */

export const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
/** Pages followed at most (Canvas answers 10 to 50 members a page; a larger course is refused, not cut short). */
export const MAX_ROSTER_PAGES = 500;
/** Members read at most. */
export const MAX_ROSTER_MEMBERS = 20_000;
/** The whole roster must arrive within this time. */
export const ROSTER_TIME_MS = 5 * 60_000;
const MAX_PAGE_BYTES = 4 * 1024 * 1024;

export type RosterMember = {
  userId: string;
  roles: string[];
  status: string;
  name: string | undefined;
  email: string | undefined;
};

/** The next page of a `Link` header (RFC 8288), if any. */
export function nextLink(header: string | null) {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = part.match(/^\s*<([^>]*)>(.*)$/);
    if (match && /;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(match[2] as string)) return match[1];
  }
  return undefined;
}

const asText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function memberOf(raw: unknown): RosterMember | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const entry = raw as Record<string, unknown>;
  const userId = asText(entry.user_id);
  if (!userId || userId.length > 255) return undefined;
  return {
    userId,
    roles: Array.isArray(entry.roles) ? entry.roles.filter((role): role is string => typeof role === 'string') : [],
    status: asText(entry.status) ?? 'Active',
    name: asText(entry.name),
    email: asText(entry.email)?.toLowerCase(),
  };
}

/**
 * Every member of a context, following `Link: <…>; rel="next"` (Canvas pages its rosters). A page on another origin
 * is refused (it would get our token), and so is a roster past the caps: a roster cut short would remove people.
 */
export async function fetchMemberships(
  db: Db,
  platform: { id: string; clientId: string; authTokenUrl: string },
  membershipsUrl: string,
  signal?: AbortSignal,
) {
  const origin = new URL(membershipsUrl).origin;
  const deadline = Date.now() + ROSTER_TIME_MS;
  const members: RosterMember[] = [];
  let url: string | undefined = membershipsUrl;
  for (let page = 0; url; page++) {
    if (page >= MAX_ROSTER_PAGES || Date.now() > deadline) {
      throw new LtiServiceError(`The roster from ${hostOf(membershipsUrl)} is too long to read in one sync.`, 0);
    }
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const response = await serviceFetch(db, platform, [LTI_SCOPES.memberships], url, {
      headers: { accept: NRPS_MEDIA_TYPE },
    });
    const text = await readCapped(response, MAX_PAGE_BYTES);
    if (!response.ok) {
      throw new LtiServiceError(
        `The LMS at ${hostOf(url)} refused the roster (HTTP ${response.status}).`,
        response.status,
      );
    }
    let body: { members?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      throw new LtiServiceError(`The roster from ${hostOf(url)} is not JSON.`, response.status);
    }
    if (!Array.isArray(body.members)) {
      throw new LtiServiceError(`The roster from ${hostOf(url)} has no member list.`, response.status);
    }
    for (const raw of body.members) {
      const member = memberOf(raw);
      if (member) members.push(member);
    }
    if (members.length > MAX_ROSTER_MEMBERS) {
      throw new LtiServiceError(`The roster from ${hostOf(membershipsUrl)} is too long to read in one sync.`, 0);
    }
    const next = nextLink(response.headers.get('link'));
    if (next !== undefined) {
      const resolved: URL = new URL(next, url);
      if (resolved.origin !== origin) {
        throw new LtiServiceError(`The roster from ${hostOf(membershipsUrl)} pointed elsewhere for its next page.`, 0);
      }
      url = resolved.href;
    } else url = undefined;
  }
  return members;
}

/** An active member who would be a student here at a launch (a Learner who does not also teach there). */
export const isActiveLearner = (member: RosterMember) =>
  member.status === 'Active' && classRoleOf(member.roles) === 'student';

export type RosterResult = { added: number; removed: number; skipped: number };

type Policy = Pick<Config, 'adminEmail' | 'teacherSignup' | 'teacherEmailDomains'>;

/**
 * Pulls the roster of each LMS context of a class: Learners enrolled (an account made for one who never launched, as
 * their first launch would make it), the class's students from that LMS who are no longer Learners there removed. A
 * Learner whose account is disabled, or is a teacher's here, is skipped.
 */
export async function syncRoster(db: Db, policy: Policy, courseId: string, signal?: AbortSignal) {
  const result: RosterResult = { added: 0, removed: 0, skipped: 0 };
  for (const { context, platform } of await contextsOfCourse(db, courseId)) {
    if (!context.membershipsUrl) continue;
    const learners = (await fetchMemberships(db, platform, context.membershipsUrl, signal)).filter(isActiveLearner);
    const known = await usersBySubject(
      db,
      platform.issuer,
      learners.map((member) => member.userId),
    );
    for (const member of learners) {
      let user = known.get(member.userId);
      if (!user) {
        const signIn = await lmsAccount(db, policy, {
          issuer: platform.issuer,
          subject: member.userId,
          name: member.name,
          email: member.email,
          teaches: false,
        });
        if (signIn.kind !== 'ok') {
          result.skipped++;
          continue;
        }
        user = { id: signIn.user.id, role: signIn.user.role };
      }
      if (user.role !== 'student') {
        result.skipped++;
        continue;
      }
      if ((await enroll(db, courseId, user.id)).created) result.added++;
    }
    const stay = new Set(learners.map((member) => member.userId));
    for (const student of await studentsFromIssuer(db, courseId, platform.issuer)) {
      if (!stay.has(student.subject) && (await removeStudent(db, courseId, student.userId))) result.removed++;
    }
    await markRosterSynced(db, context.id);
  }
  return result;
}
