import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { linkIdentity } from '../auth/federated';
import { masterPlaylistPath } from '../contract/videos';
import { latestJob } from '../db/queries/lti-services';
import {
  enrollments,
  jobs,
  ltiContexts,
  ltiPlatforms,
  ltiResourceLinks,
  ltiScoresSent,
  userIdentities,
  users,
  videos,
  watchCoverage,
} from '../db/schema';
import { newId } from '../lib/ids';
import { SCORE_DEBOUNCE_MS, scoreSubject, scoresUrl } from '../lti/ags';
import { nextLink } from '../lti/nrps';
import { LTI_SCOPES } from '../lti/service-token';
import { type Account, type Harness, startHarness } from '../test/harness';
import { type LtiPlatform, startLtiPlatform } from '../test/lti-platform';
import { INSTRUCTOR, LEARNER, type LtiMember, SCORE_MEDIA_TYPE, startLtiServices } from '../test/lti-platform-services';
import { classScenario, joinClass } from '../test/scenario';
import { expectPermissions, expectRefused } from '../test/tables';
import { waitUntil } from '../test/wait';

/**
 * The LTI Advantage services against a test LMS over real HTTP (src/test/lti-platform-services.ts): the server asks
 * it for service tokens with a client assertion it checks against our published key set, pulls its paged rosters and
 * posts scores to its Moodle-style line items. The launches themselves are the core's tests: here a platform, an LMS
 * course linked to the class and a placed lecture are rows, and people from the LMS are accounts with its identity.
 */

const CLIENT_ID = 'classroom-tool';
const CONTEXT = 'bio-101';
/** Ten minutes: a coverage part is 6 s. */
const DURATION = 600;

let h: Harness;
let lms: ReturnType<typeof startLtiServices>;
let teacher: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;
let courseId: string;
let platformId: string;
/** A password account the LMS knows as `ben`. */
let ben: Account;

/** A password account known to the LMS as `subject` (it launched once, or linked it in Settings). */
async function knownToLms(who: Account, subject: string) {
  await linkIdentity(h.db, who.user._id, { issuer: lms.issuer, subject, email: who.email });
}

const member = (userId: string, extra: Partial<LtiMember> = {}): LtiMember => ({
  user_id: userId,
  roles: [LEARNER],
  status: 'Active',
  name: `Learner ${userId}`,
  email: `${userId}@lms.test`,
  ...extra,
});

const enrolledIds = async (course = courseId) =>
  (await h.db.select({ id: enrollments.studentId }).from(enrollments).where(eq(enrollments.courseId, course))).map(
    (row) => row.id,
  );
const userBySubject = async (subject: string) =>
  (
    await h.db
      .select({ id: users.id, role: users.role, passwordHash: users.passwordHash })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.issuer, lms.issuer), eq(userIdentities.subject, subject)))
  )[0];

/** Asks for a roster sync as the teacher and waits for it to end; answers the class's LMS section. */
async function syncRoster() {
  const asked = await h.api('POST', `/api/courses/${courseId}/lti/roster-sync`, { as: teacher.token });
  expect(asked.status).toBe(202);
  expect(['queued', 'running']).toContain(asked.json.job.state);
  return waitUntil('the roster sync to end', async () => {
    const section = await h.api('GET', `/api/courses/${courseId}/lti`, { as: teacher.token });
    expect(section.status).toBe(200);
    return ['done', 'failed'].includes(section.json.rosterSync?.state) && section.json;
  });
}

/** A lecture with a ready video (made in the database: no transcode), through the API. */
async function lectureWithVideo(name: string) {
  const videoId = newId();
  await h.db.insert(videos).values({
    id: videoId,
    ownerId: teacher.user._id,
    status: 'ready',
    sourceName: `${name}.mp4`,
    sourceBytes: 1,
    durationMs: DURATION * 1000,
    width: 640,
    height: 360,
    hasAudio: false,
    plan: '[]',
  });
  const made = await h.api('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId, nameOfTopic: name, videoLink: masterPlaylistPath(videoId) },
  });
  if (made.status !== 201) throw new Error(`setup: lecture ${made.status} ${made.text}`);
  return made.json._id as string;
}

/** Plays `from`..`to` as the player reports it, every 15 s of real time (moved back instead of waited for). */
async function play(lectureId: string, who: Account, from: number, to: number) {
  let last: any;
  for (let at = from; at < to; at += 15) {
    const answer = await h.api('POST', `/api/lectures/${lectureId}/coverage`, {
      as: who.token,
      body: { ranges: [[at, Math.min(to, at + 15)]], rate: 1 },
    });
    expect(answer.status).toBe(200);
    last = answer.json;
    const row = and(eq(watchCoverage.userId, who.user._id), eq(watchCoverage.lectureId, lectureId));
    const [coverage] = await h.db.select({ lastAt: watchCoverage.lastAt }).from(watchCoverage).where(row);
    await h.db
      .update(watchCoverage)
      .set({ lastAt: (coverage?.lastAt ?? Date.now()) - 15_000 })
      .where(row);
  }
  return last as { percent: number };
}

/** The scores the LMS received for one of its people, oldest first. */
const scoresOf = (subject: string) =>
  lms.scores.filter((score) => score.body.userId === subject).map((score) => score.body);

/** Waits for the score job of (link, person) to end; answers it. */
const scoreJobEnded = (linkId: string, userId: string) =>
  waitUntil('the score job to end', async () => {
    const job = await latestJob(h.db, 'lti-score', scoreSubject(linkId, userId));
    return job && ['done', 'failed'].includes(job.state) ? job : undefined;
  });

beforeAll(async () => {
  h = await startHarness();
  lms = startLtiServices({ clientId: CLIENT_ID, toolJwksUrl: () => `${h.baseUrl}/api/lti/jwks` });
  const cast = await classScenario(h, { courseName: 'Biology' });
  ({ teacher, otherTeacher, student, outsider } = cast);
  courseId = cast.course?.id as string;
  platformId = newId();
  await h.db.insert(ltiPlatforms).values({
    id: platformId,
    name: 'Test LMS',
    issuer: lms.issuer,
    clientId: CLIENT_ID,
    authLoginUrl: `${lms.url}/auth`,
    authTokenUrl: lms.tokenUrl(),
    jwksUrl: `${lms.url}/jwks`,
    deploymentIds: JSON.stringify(['deployment-1']),
    createdAt: Date.now(),
  });
  await h.db.insert(ltiContexts).values({
    id: newId(),
    platformId,
    contextId: CONTEXT,
    courseId,
    title: 'Biology 101',
    membershipsUrl: lms.membershipsUrl(CONTEXT),
    lineitemsUrl: lms.lineItemsUrl(CONTEXT),
    agsScopes: JSON.stringify([LTI_SCOPES.lineItem, LTI_SCOPES.score, LTI_SCOPES.resultReadonly]),
  });
});
afterAll(async () => {
  await h?.close();
  await lms?.stop();
});

describe('pieces', () => {
  test('the scores URL keeps a line item’s query after /scores (Moodle)', () => {
    expect(scoresUrl('https://moodle.test/mod/lti/services.php/2/lineitems/7/lineitem?type_id=2')).toBe(
      'https://moodle.test/mod/lti/services.php/2/lineitems/7/lineitem/scores?type_id=2',
    );
    expect(scoresUrl('https://canvas.test/api/lti/courses/1/line_items/5')).toBe(
      'https://canvas.test/api/lti/courses/1/line_items/5/scores',
    );
  });

  test('the next page is read from a Link header among other relations', () => {
    expect(nextLink('<https://lms.test/m?page=2>; rel="next", <https://lms.test/m?page=9>; rel="last"')).toBe(
      'https://lms.test/m?page=2',
    );
    expect(nextLink('<https://lms.test/m?page=1>; rel="first", <https://lms.test/m?page=3>; rel=next')).toBe(
      'https://lms.test/m?page=3',
    );
    expect(nextLink('<https://lms.test/m?page=9>; rel="last"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
});

describe('rosters', () => {
  test('a sync follows every page and enrolls the Learners, never a password account with their email', async () => {
    ben = await h.signUp('student', 'Ben Linked');
    await knownToLms(ben, 'ben');
    // Someone with a password account whose address the LMS gives for another person: never entered.
    const sameEmail = await h.signUp('student', 'Cat Password');
    lms.setMembers(CONTEXT, [
      member('ann'),
      member('ben'),
      member('ivy', { roles: [INSTRUCTOR] }),
      member('cat', { email: sameEmail.email }),
      member('dan', { status: 'Inactive' }),
      member('eve', { email: undefined }),
      member('fay', { roles: ['Learner'] }),
    ]);
    const pagesBefore = lms.requests.filter((path) => path.startsWith('/nrps/')).length;
    const section = await syncRoster();
    expect(section.rosterSync).toMatchObject({ state: 'done', error: null });
    // Seven members, two a page.
    expect(lms.requests.filter((path) => path.startsWith('/nrps/')).length - pagesBefore).toBe(4);

    const ann = await userBySubject('ann');
    expect(ann).toMatchObject({ role: 'student', passwordHash: '' });
    const fromLms = await Promise.all(['ann', 'cat', 'eve', 'fay'].map(userBySubject));
    const enrolled = await enrolledIds();
    expect(enrolled).toEqual(
      expect.arrayContaining([...fromLms.map((user) => user?.id), ben.user._id, student.user._id]),
    );
    // Cat's LMS address is a password account's: Cat gets an account of her own, and that one is never entered.
    expect(fromLms[1]?.id).not.toBe(sameEmail.user._id);
    expect(enrolled).not.toContain(sameEmail.user._id);
    for (const subject of ['ivy', 'dan']) expect(await userBySubject(subject)).toBeUndefined();
    expect(section.lmsStudents).toBe(5);
    expect(section.contexts).toEqual([
      expect.objectContaining({ platformName: 'Test LMS', title: 'Biology 101', roster: true, gradebook: true }),
    ]);
    expect(Date.parse(section.contexts[0].lastRosterSyncAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  test('a Learner who left the LMS course leaves the class, and what was kept of them goes', async () => {
    const lectureId = await lectureWithVideo('Cells');
    // Ben watched a little.
    await play(lectureId, ben, 0, 30);
    expect(await h.db.$count(watchCoverage, eq(watchCoverage.userId, ben.user._id))).toBe(1);

    lms.setMembers(CONTEXT, [member('ann'), member('cat'), member('eve'), member('fay', { roles: ['Learner'] })]);
    const section = await syncRoster();
    expect(section.rosterSync.state).toBe('done');
    const enrolled = await enrolledIds();
    expect(enrolled).not.toContain(ben.user._id);
    expect(enrolled).toContain((await userBySubject('ann'))?.id);
    // A student who joined by the class's code is not the LMS's to remove.
    expect(enrolled).toContain(student.user._id);
    expect(await h.db.$count(watchCoverage, eq(watchCoverage.userId, ben.user._id))).toBe(0);
    expect(section.lmsStudents).toBe(4);
  });
});

describe('grades', () => {
  let lectureId: string;
  let linkId: string;
  let gus: Account;
  let questionId: string;

  beforeAll(async () => {
    lectureId = await lectureWithVideo('Mitosis');
    const question = await h.api('POST', `/api/lectures/${lectureId}/questions`, {
      as: teacher.token,
      body: { kind: 'truefalse', at: 60, prompt: 'Cells divide.', correct: true, feedback: false },
    });
    expect(question.status).toBe(201);
    questionId = question.json._id;
    linkId = newId();
    await h.db.insert(ltiResourceLinks).values({
      id: linkId,
      platformId,
      resourceLinkId: 'link-mitosis',
      courseId,
      lectureId,
      lineitemUrl: null,
      scoreSource: 'watched',
    });
    gus = await h.signUp('student', 'Gus Grade');
    await knownToLms(gus, 'gus');
    const course = await h.api('GET', `/api/courses/${courseId}`, { as: teacher.token });
    await joinClass(h, gus, course.json.inviteCode);
  });

  test('a student watches: a gradebook column is made and the LMS receives the percent once', async () => {
    const watched = await play(lectureId, gus, 0, DURATION / 2);
    expect(watched.percent).toBeGreaterThan(40);
    await waitUntil('the score at the LMS', () => lms.scores.length === 1, { timeoutMs: 30_000 });
    const [item] = lms.lineItems(CONTEXT);
    expect(item).toMatchObject({ label: 'Mitosis', scoreMaximum: 100, resourceLinkId: 'link-mitosis' });
    expect(item?.id).toEndWith('/lineitem?type_id=2');
    const [link] = await h.db.select().from(ltiResourceLinks).where(eq(ltiResourceLinks.id, linkId));
    expect(link?.lineitemUrl).toBe(item?.id as string);
    const [score] = lms.scores;
    expect(score).toMatchObject({ query: '?type_id=2', lineItem: item?.id, contentType: SCORE_MEDIA_TYPE });
    expect(score?.body).toMatchObject({
      userId: 'gus',
      scoreGiven: watched.percent,
      scoreMaximum: 100,
      activityProgress: 'InProgress',
      gradingProgress: 'FullyGraded',
    });
    expect(Date.parse(score?.body.timestamp as string)).toBeGreaterThan(Date.now() - 60_000);
    const [sent] = await h.db.select().from(ltiScoresSent).where(eq(ltiScoresSent.userId, gus.user._id));
    expect(sent?.scoreGiven).toBe(watched.percent);
  });

  test('an answer that leaves the grade as it was sends nothing again', async () => {
    // Graded by what was watched: answering changes nothing the gradebook holds.
    const answered = await h.api('POST', `/api/questions/${questionId}/answers`, {
      as: gus.token,
      body: { answer: true },
    });
    expect(answered.status).toBe(200);
    const job = await scoreJobEnded(linkId, gus.user._id);
    expect(job.state).toBe('done');
    expect(lms.scores).toHaveLength(1);
  });

  test('the teacher grades the link by questions: the question score goes out', async () => {
    const changed = await h.api('PATCH', `/api/courses/${courseId}/lti/links/${linkId}`, {
      as: teacher.token,
      body: { scoreSource: 'questions' },
    });
    expect(changed.status).toBe(200);
    expect(changed.json).toMatchObject({
      _id: linkId,
      scoreSource: 'questions',
      hasQuestions: true,
      inGradebook: true,
    });
    await waitUntil('the question score at the LMS', () => scoresOf('gus').length === 2, { timeoutMs: 30_000 });
    expect(scoresOf('gus')[1]).toMatchObject({ userId: 'gus', scoreGiven: 100, activityProgress: 'Completed' });
    // The class's other LMS students have neither played nor answered: no grade (not a 0) goes for them.
    await h.jobsSettled();
    await Bun.sleep(SCORE_DEBOUNCE_MS + 1000);
    await h.jobsSettled();
    expect(lms.scores.map((score) => score.body.userId)).toEqual(['gus', 'gus']);
  });

  test('a gradebook that fails gets the score on a retry', async () => {
    lms.failScores(1);
    const changed = await h.api('PATCH', `/api/courses/${courseId}/lti/links/${linkId}`, {
      as: teacher.token,
      body: { scoreSource: 'watched' },
    });
    expect(changed.status).toBe(200);
    await waitUntil('the score after a retry', () => scoresOf('gus').length === 3, { timeoutMs: 40_000 });
    const [sent] = await h.db.select().from(ltiScoresSent).where(eq(ltiScoresSent.userId, gus.user._id));
    expect(scoresOf('gus')[2]?.scoreGiven).toBe(sent?.scoreGiven as number);
    expect(sent?.scoreGiven).toBeLessThan(100);
    const job = await scoreJobEnded(linkId, gus.user._id);
    const [row] = await h.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row).toMatchObject({ state: 'done', attempts: 2 });
  });
});

describe('who may', () => {
  test('only the class’s teacher sees the LMS section, syncs or changes a grade source', async () => {
    const [link] = await h.db.select().from(ltiResourceLinks).where(eq(ltiResourceLinks.courseId, courseId));
    await expectPermissions<'teacher' | 'otherTeacher' | 'student' | 'outsider'>(
      h,
      { teacher: teacher.token, otherTeacher: otherTeacher.token, student: student.token, outsider: outsider.token },
      [
        { name: 'the LMS section', method: 'GET', path: `/api/courses/${courseId}/lti`, allowed: ['teacher'] },
        {
          name: 'a roster sync',
          method: 'POST',
          path: `/api/courses/${courseId}/lti/roster-sync`,
          allowed: ['teacher'],
        },
        {
          // The source it has already: the teacher's allowed call changes nothing for the next checks to see.
          name: 'a grade source',
          method: 'PATCH',
          path: `/api/courses/${courseId}/lti/links/${link?.id}`,
          body: { scoreSource: 'watched' },
          allowed: ['teacher'],
        },
      ],
      { student: 403, otherTeacher: 404, outsider: 404 },
    );
  });

  test('a class with no LMS roster, or another class’s link, is refused and nothing changes', async () => {
    const other = await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Chemistry' } });
    expect(other.status).toBe(201);
    const [link] = await h.db.select().from(ltiResourceLinks).where(eq(ltiResourceLinks.courseId, courseId));
    await expectRefused(h, {
      name: 'a sync without a roster',
      as: teacher.token,
      method: 'POST',
      path: `/api/courses/${other.json._id}/lti/roster-sync`,
      status: 409,
      code: 'lti_no_roster',
    });
    await expectRefused(h, {
      name: 'another class’s link',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/courses/${other.json._id}/lti/links/${link?.id}`,
      body: { scoreSource: 'questions' },
      status: 404,
      code: 'lti_link_not_found',
    });
    await expectRefused(h, {
      name: 'a grade source that is not one',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/courses/${courseId}/lti/links/${link?.id}`,
      body: { scoreSource: 'attendance' },
      status: 400,
      field: 'scoreSource',
    });
    const section = await h.api('GET', `/api/courses/${other.json._id}/lti`, { as: teacher.token });
    expect(section.json).toEqual({ contexts: [], lmsStudents: 0, rosterSync: null, links: [] });
  });
});

describe('from real launches to the roster and the gradebook', () => {
  let h2: Harness;
  let platform: LtiPlatform;
  const AGS = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
  const NRPS = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
  const services = () => ({
    [NRPS]: { context_memberships_url: platform.services.membershipsUrl('chem-1'), service_versions: ['2.0'] },
    [AGS]: {
      scope: [LTI_SCOPES.lineItem, LTI_SCOPES.score, LTI_SCOPES.resultReadonly],
      lineitems: platform.services.lineItemsUrl('chem-1'),
    },
  });

  beforeAll(async () => {
    h2 = await startHarness();
    // The first account of a fresh server is its administrator: it registers the LMS.
    const admin = await h2.signUp('teacher', 'Ada Admin');
    platform = await startLtiPlatform();
    await platform.register(h2.api, admin.token, h2.baseUrl);
  });
  afterAll(async () => {
    platform?.close();
    await h2?.close();
  });

  test('a launched student is graded in the LMS, and a roster sync brings and takes the others', async () => {
    const context = { id: 'chem-1', title: 'Chemistry 9' };
    const teacherLaunch = await platform.playLaunch(
      h2.baseUrl,
      platform.prepareLaunch({ sub: 't-1', name: 'Tom Teacher', roles: [INSTRUCTOR], context, claims: services() }),
    );
    expect(teacherLaunch.status).toBe(200);
    const teacherToken = teacherLaunch.token as string;
    const [row] = await h2.db.select().from(ltiContexts).where(eq(ltiContexts.contextId, 'chem-1'));
    const chemistry = row?.courseId as string;
    const videoId = newId();
    const me = await h2.api('GET', '/api/users', { as: teacherToken });
    await h2.db.insert(videos).values({
      id: videoId,
      ownerId: me.json._id,
      status: 'ready',
      sourceName: 'acids.mp4',
      sourceBytes: 1,
      durationMs: DURATION * 1000,
      width: 640,
      height: 360,
      hasAudio: false,
      plan: '[]',
    });
    const lecture = await h2.api('POST', '/api/lectures', {
      as: teacherToken,
      body: { courseId: chemistry, nameOfTopic: 'Acids', videoLink: masterPlaylistPath(videoId) },
    });
    expect(lecture.status).toBe(201);

    // The lecture placed in the LMS (deep linking's link) is opened by a student.
    const studentLaunch = await platform.playLaunch(
      h2.baseUrl,
      platform.prepareLaunch({
        sub: 's-1',
        name: 'Sue Student',
        roles: [LEARNER],
        context,
        resourceLink: { id: 'link-acids' },
        custom: { lecture_id: lecture.json._id },
        claims: services(),
      }),
    );
    expect(studentLaunch.status).toBe(200);
    const sue = {
      token: studentLaunch.token as string,
      user: (await h2.api('GET', '/api/users', { as: studentLaunch.token })).json,
    };
    for (let at = 0; at < 120; at += 15) {
      const report = await h2.api('POST', `/api/lectures/${lecture.json._id}/coverage`, {
        as: sue.token,
        body: { ranges: [[at, at + 15]], rate: 1 },
      });
      expect(report.status).toBe(200);
      await h2.db
        .update(watchCoverage)
        .set({ lastAt: Date.now() - 15_000 })
        .where(eq(watchCoverage.userId, sue.user._id));
    }
    await waitUntil('Sue’s score at the LMS', () => platform.services.scores.length === 1, { timeoutMs: 30_000 });
    expect(platform.services.lineItems('chem-1')).toEqual([
      expect.objectContaining({ label: 'Acids', scoreMaximum: 100, resourceLinkId: 'link-acids' }),
    ]);
    expect(platform.services.scores[0]).toMatchObject({ query: '?type_id=2', body: { userId: 's-1', scoreGiven: 20 } });

    // Two more Learners in the LMS course, who never opened the class; then one of them leaves.
    platform.services.setMembers('chem-1', [
      { user_id: 's-1', roles: [LEARNER], status: 'Active' },
      { user_id: 's-2', roles: [LEARNER], status: 'Active', name: 'Sid Second' },
      { user_id: 's-3', roles: [LEARNER], status: 'Active', name: 'Sol Third' },
      { user_id: 't-1', roles: [INSTRUCTOR], status: 'Active' },
    ]);
    const names = async () => {
      const roster = await h2.api('GET', `/api/courses/${chemistry}/students`, { as: teacherToken });
      expect(roster.status).toBe(200);
      return roster.json.map((student: { username: string }) => student.username).sort();
    };
    const sync = async () => {
      expect((await h2.api('POST', `/api/courses/${chemistry}/lti/roster-sync`, { as: teacherToken })).status).toBe(
        202,
      );
      await waitUntil('the sync to end', async () => {
        const job = await latestJob(h2.db, 'lti-roster-sync', `lti-roster.${chemistry}`);
        return job?.state === 'done';
      });
    };
    await sync();
    expect(await names()).toEqual(['Sid Second', 'Sol Third', 'Sue Student']);
    platform.services.setMembers('chem-1', [
      { user_id: 's-1', roles: [LEARNER], status: 'Active' },
      { user_id: 's-3', roles: [LEARNER], status: 'Active' },
    ]);
    await sync();
    expect(await names()).toEqual(['Sol Third', 'Sue Student']);
    // Sol launches later: the account the roster made is hers, not a second one.
    const sidLaunch = await platform.playLaunch(
      h2.baseUrl,
      platform.prepareLaunch({ sub: 's-3', roles: [LEARNER], context, claims: services() }),
    );
    expect(sidLaunch.status).toBe(200);
    expect((await h2.api('GET', '/api/users', { as: sidLaunch.token })).json.username).toBe('Sol Third');
  });
});
