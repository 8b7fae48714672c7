import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import {
  courses,
  enrollments,
  ltiContexts,
  ltiPlatforms,
  ltiResourceLinks,
  ltiToolKeys,
  sessions,
  userIdentities,
  users,
} from '../db/schema';
import { rotateToolKey, signAsTool } from '../lti/keys';
import { type Account, type Harness, startHarness, TEST_PASSWORD } from '../test/harness';
import { type LtiPlatform, ROLES, startLtiPlatform } from '../test/lti-platform';
import { expectRefused } from '../test/tables';

let h: Harness;
let lms: LtiPlatform;
let admin: Account;
let platformId: string;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  // The first account of a fresh server is its administrator.
  admin = await h.signUp('teacher', 'Ada Admin');
  lms = await startLtiPlatform();
  platformId = (await lms.register(h.api, admin.token, h.baseUrl))._id;
});
afterAll(async () => {
  lms?.close();
  await h?.close();
});

const sessionCount = async () => (await h.db.select().from(sessions)).length;
const identityOf = async (subject: string) =>
  (
    await h.db
      .select()
      .from(userIdentities)
      .where(and(eq(userIdentities.issuer, lms.issuer), eq(userIdentities.subject, subject)))
  )[0];

describe('our LTI key set', () => {
  test('is public, holds only public keys, and checks what the newest key signed', async () => {
    const first = await h.api('GET', '/api/lti/jwks');
    expect(first.status).toBe(200);
    expect(first.json.keys.length).toBeGreaterThanOrEqual(1);
    await rotateToolKey(h.db);
    const jwks = (await h.api('GET', '/api/lti/jwks')).json;
    expect(jwks.keys).toHaveLength(first.json.keys.length + 1);
    for (const key of jwks.keys) {
      // Read into a fresh object: Bun's toMatchObject leaves its matchers in the object it was given.
      expect({ kty: key.kty, alg: key.alg, use: key.use, kid: typeof key.kid }).toEqual({
        kty: 'RSA',
        alg: 'RS256',
        use: 'sig',
        kid: 'string',
      });
      // A private part would hand our signature to anyone.
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[secret]).toBeUndefined();
    }
    const jwt = await signAsTool(h.db, { hello: 'platform' }, { audience: 'https://lms.test', expiresIn: 60 });
    const rows = await h.db.select().from(ltiToolKeys);
    const newest = rows.sort((a, b) => b.createdAt - a.createdAt || b.kid.localeCompare(a.kid))[0];
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', kid: newest.kid });
    const { payload } = await compactVerify(jwt, createLocalJWKSet(jwks));
    expect(JSON.parse(new TextDecoder().decode(payload))).toMatchObject({ hello: 'platform', aud: 'https://lms.test' });
  });
});

describe('registering an LMS', () => {
  test('only an administrator lists, adds, changes and removes platforms; refusals change nothing', async () => {
    const teacher = await h.signUp('teacher', 'Tom Teacher');
    const body = { ...lms.registration(), clientId: 'another-client' };
    await expectRefused(h, {
      name: 'teacher lists',
      as: teacher.token,
      method: 'GET',
      path: '/api/admin/lti/platforms',
      status: 403,
    });
    await expectRefused(h, {
      name: 'teacher adds',
      as: teacher.token,
      method: 'POST',
      path: '/api/admin/lti/platforms',
      body,
      status: 403,
    });
    await expectRefused(h, {
      name: 'anonymous adds',
      method: 'POST',
      path: '/api/admin/lti/platforms',
      body,
      status: 401,
    });
    await expectRefused(h, {
      name: 'a key set over plain http elsewhere',
      as: admin.token,
      method: 'POST',
      path: '/api/admin/lti/platforms',
      body: { ...body, jwksUrl: 'http://lms.example.com/jwks' },
      status: 400,
      field: 'jwksUrl',
    });
    await expectRefused(h, {
      name: 'the same issuer and client again',
      as: admin.token,
      method: 'POST',
      path: '/api/admin/lti/platforms',
      body: lms.registration(),
      status: 409,
      code: 'lti_platform_exists',
    });
    const added = await h.api('POST', '/api/admin/lti/platforms', { as: admin.token, body });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ clientId: 'another-client', deploymentIds: ['deployment-1'] });
    const changed = await h.api('PATCH', `/api/admin/lti/platforms/${added.json._id}`, {
      as: admin.token,
      body: { deploymentIds: ['d-2', 'd-3'] },
    });
    expect(changed.json.deploymentIds).toEqual(['d-2', 'd-3']);
    const listed = await h.api('GET', '/api/admin/lti/platforms', { as: admin.token });
    expect(listed.json.map((row: { clientId: string }) => row.clientId).sort()).toEqual(
      ['another-client', lms.clientId].sort(),
    );
    expect((await h.api('DELETE', `/api/admin/lti/platforms/${added.json._id}`, { as: admin.token })).status).toBe(200);
    await expectRefused(h, {
      name: 'removing it twice',
      as: admin.token,
      method: 'DELETE',
      path: `/api/admin/lti/platforms/${added.json._id}`,
      status: 404,
    });
  });

  test('Dynamic Registration with the admin key registers the LMS once; without a live key nothing is stored', async () => {
    const other = await startLtiPlatform({ hostname: '127.0.0.3' });
    try {
      const made = await h.api('POST', '/api/admin/lti/registration-url', { as: admin.token });
      expect(made.status).toBe(201);
      const url = new URL(made.json.url);
      url.searchParams.set('openid_configuration', other.openidConfigurationUrl());
      url.searchParams.set('registration_token', other.registrationToken);
      const path = `${url.pathname}${url.search}`;
      const before = h.snapshot();
      const withoutKey = new URL(url);
      withoutKey.searchParams.delete('key');
      const refused = await h.api('GET', `${withoutKey.pathname}${withoutKey.search}`);
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('Registration did not work');
      expect(h.snapshot()).toEqual(before);

      const done = await h.api('GET', path);
      expect(done.status).toBe(200);
      expect(done.text).toContain('org.imsglobal.lti.close');
      const [sent] = other.registrations;
      expect(sent).toMatchObject({
        initiate_login_uri: `${h.baseUrl}/api/lti/login`,
        redirect_uris: [`${h.baseUrl}/api/lti/launch`],
        jwks_uri: `${h.baseUrl}/api/lti/jwks`,
      });
      expect(String(sent.scope)).toContain('https://purl.imsglobal.org/spec/lti-ags/scope/score');
      expect(String(sent.scope)).toContain('contextmembership.readonly');
      const [stored] = await h.db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, other.issuer));
      expect(stored).toMatchObject({ clientId: other.clientId, jwksUrl: `${other.issuer}/jwks`, name: 'test-lms' });
      expect(JSON.parse(stored.deploymentIds)).toEqual([other.deploymentId]);

      // The key is spent.
      const again = await h.api('GET', path);
      expect(again.status).toBe(403);
      expect(other.registrations).toHaveLength(1);
    } finally {
      other.close();
    }
  });
});

describe('launching from the LMS', () => {
  let teacherToken: string;
  let courseId: string;
  let lectureId: string;

  test('a teacher launches, and a class named after the LMS course is made and opened', async () => {
    const hint = lms.prepareLaunch({
      sub: 'teacher-1',
      name: 'Grace Hopper',
      email: 'grace@school.test',
      roles: [ROLES.instructor],
      context: { id: 'course-bio', title: 'Biology 101' },
      resourceLink: { id: 'link-class' },
      claims: {
        'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
          context_memberships_url: `${lms.issuer}/nrps/course-bio`,
          service_versions: ['2.0'],
        },
      },
    });
    const launch = await lms.playLaunch(h.baseUrl, hint);
    expect(launch.status).toBe(200);
    expect(launch.token).toBeString();
    teacherToken = launch.token as string;
    // The session cookie crosses the LMS's frame.
    const tokenCookie = launch.headers.getSetCookie().find((line) => line.startsWith('token='));
    expect(tokenCookie).toContain('SameSite=None');
    expect(tokenCookie).toContain('Secure');
    expect(tokenCookie).toContain('Partitioned');
    const me = await h.api('GET', '/api/users', { as: teacherToken });
    expect(me.json).toMatchObject({ username: 'Grace Hopper', role: 'teacher' });
    const [context] = await h.db.select().from(ltiContexts).where(eq(ltiContexts.contextId, 'course-bio'));
    expect(context.membershipsUrl).toBe(`${lms.issuer}/nrps/course-bio`);
    const [course] = await h.db.select().from(courses).where(eq(courses.id, context.courseId));
    expect(course).toMatchObject({ courseName: 'Biology 101', teacherId: me.json._id });
    expect(launch.destination).toBe(`/classroom/${course.id}?lti=1`);
    courseId = course.id;
    expect((await identityOf('teacher-1'))?.email).toBe('grace@school.test');
    const lecture = await h.api('POST', '/api/lectures', {
      as: teacherToken,
      body: { courseId, nameOfTopic: 'Cells' },
    });
    expect(lecture.status).toBe(201);
    lectureId = lecture.json._id;
  });

  test('the page a launch opens may be framed by the registered LMS only; other pages by no one', async () => {
    const framed = await fetch(`${h.baseUrl}/classroom/${courseId}?lti=1`);
    const policy = framed.headers.get('content-security-policy') ?? '';
    expect(policy).toContain(`frame-ancestors 'self' ${lms.issuer}`);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const plain = await fetch(`${h.baseUrl}/classroom/${courseId}`);
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  test("a launch's signed return page on the school's own host (Canvas) may frame us; an unsigned claim may not", async () => {
    const schoolHost = 'https://biology-school.instructure.test';
    const before = await fetch(`${h.baseUrl}/classroom/${courseId}?lti=1`);
    expect(before.headers.get('content-security-policy')).not.toContain(schoolHost);
    const hint = lms.prepareLaunch({
      sub: 'teacher-1',
      roles: [ROLES.instructor],
      context: { id: 'course-bio', title: 'Biology 101' },
      resourceLink: { id: 'link-class' },
      claims: {
        'https://purl.imsglobal.org/spec/lti/claim/launch_presentation': {
          document_target: 'iframe',
          return_url: `${schoolHost}/courses/12/external_content/success`,
        },
      },
    });
    expect((await lms.playLaunch(h.baseUrl, hint)).status).toBe(200);
    const after = await fetch(`${h.baseUrl}/classroom/${courseId}?lti=1`);
    const ancestors = /frame-ancestors ([^;]*)/.exec(after.headers.get('content-security-policy') ?? '')?.[1] ?? '';
    expect(ancestors.split(' ')).toEqual(expect.arrayContaining(["'self'", lms.issuer, schoolHost]));
    // A refused launch (a forged signature) teaches nothing.
    const forged = lms.prepareLaunch({
      sub: 'teacher-1',
      roles: [ROLES.instructor],
      context: { id: 'course-bio', title: 'Biology 101' },
      claims: {
        'https://purl.imsglobal.org/spec/lti/claim/launch_presentation': { return_url: 'https://forged.test/x' },
      },
      tamper: { otherKey: true },
    });
    expect((await lms.playLaunch(h.baseUrl, forged)).status).toBe(401);
    const last = await fetch(`${h.baseUrl}/classroom/${courseId}?lti=1`);
    expect(last.headers.get('content-security-policy')).not.toContain('forged.test');
  });

  test("the picker speaks the teacher's own language (Settings), not only the browser's", async () => {
    const me = await h.api('GET', '/api/users', { as: teacherToken });
    await h.api('PATCH', `/api/users/${me.json._id}`, { as: teacherToken, body: { locale: 'es' } });
    try {
      const hint = lms.prepareLaunch({
        sub: 'teacher-1',
        roles: [ROLES.instructor],
        context: { id: 'course-bio', title: 'Biology 101' },
        messageType: 'LtiDeepLinkingRequest',
      });
      const launch = await lms.playLaunch(h.baseUrl, hint);
      expect(launch.status).toBe(200);
      expect(launch.html).toContain('<html lang="es"');
      expect(launch.html).not.toContain('Add to your LMS course');
    } finally {
      await h.api('PATCH', `/api/users/${me.json._id}`, { as: teacherToken, body: { locale: null } });
    }
  });

  test('deep linking: the teacher picks a lecture, and the LMS gets a signed link with a line item', async () => {
    const hint = lms.prepareLaunch({
      sub: 'teacher-1',
      roles: [ROLES.instructor],
      context: { id: 'course-bio', title: 'Biology 101' },
      messageType: 'LtiDeepLinkingRequest',
      deepLinkData: 'opaque-123',
    });
    const launch = await lms.playLaunch(h.baseUrl, hint);
    expect(launch.status).toBe(200);
    expect(launch.html).toContain('Add to your LMS course');
    expect(launch.html).toContain('Cells');
    const request = /name="request" value="([^"]+)"/.exec(launch.html)?.[1] as string;
    const picked = await fetch(`${h.baseUrl}/api/lti/deep-link`, {
      method: 'POST',
      body: new URLSearchParams({ request, pick: `${courseId}/${lectureId}` }),
    });
    const page = await picked.text();
    expect(picked.status).toBe(200);
    const action = /action="([^"]+)"/.exec(page)?.[1];
    const jwt = /name="JWT" value="([^"]+)"/.exec(page)?.[1] as string;
    expect(action).toBe(`${lms.issuer}/deep-link-return`);
    // The browser's auto-post, played here: the test LMS checks the JWT against our key set.
    const returned = await fetch(action as string, { method: 'POST', body: new URLSearchParams({ JWT: jwt }) });
    expect(returned.status).toBe(200);
    const [{ payload }] = lms.deepLinkReturns;
    expect(payload).toMatchObject({
      iss: lms.clientId,
      aud: lms.issuer,
      'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingResponse',
      'https://purl.imsglobal.org/spec/lti/claim/version': '1.3.0',
      'https://purl.imsglobal.org/spec/lti/claim/deployment_id': lms.deploymentId,
      'https://purl.imsglobal.org/spec/lti-dl/claim/data': 'opaque-123',
    });
    const [item] = payload['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Record<string, any>[];
    expect(item).toMatchObject({
      type: 'ltiResourceLink',
      title: 'Cells',
      url: `${h.baseUrl}/api/lti/launch`,
      custom: { lecture_id: lectureId },
      lineItem: { scoreMaximum: 100, label: 'Cells' },
    });
  });

  let studentId: string;
  test('a student launches the deep-linked lecture: enrolled, signed in, and on the lecture', async () => {
    const spec = {
      sub: 'student-1',
      name: 'Sam Student',
      roles: [ROLES.learner],
      context: { id: 'course-bio', title: 'Biology 101' },
      resourceLink: { id: 'link-cells' },
      custom: { lecture_id: lectureId },
      claims: {
        'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
          scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
          lineitems: `${lms.issuer}/ags/course-bio/lineitems`,
          lineitem: `${lms.issuer}/ags/course-bio/lineitems/7/lineitem?type_id=3`,
        },
      },
    };
    const launch = await lms.playLaunch(h.baseUrl, lms.prepareLaunch(spec));
    expect(launch.status).toBe(200);
    expect(launch.destination).toBe(`/classroom/${courseId}?lecture=${lectureId}&lti=1`);
    const me = await h.api('GET', '/api/users', { as: launch.token });
    expect(me.json).toMatchObject({ username: 'Sam Student', role: 'student' });
    studentId = me.json._id;
    const enrolled = await h.db
      .select()
      .from(enrollments)
      .where(and(eq(enrollments.courseId, courseId), eq(enrollments.studentId, studentId)));
    expect(enrolled).toHaveLength(1);
    const [link] = await h.db.select().from(ltiResourceLinks).where(eq(ltiResourceLinks.resourceLinkId, 'link-cells'));
    expect(link).toMatchObject({
      courseId,
      lectureId,
      lineitemUrl: `${lms.issuer}/ags/course-bio/lineitems/7/lineitem?type_id=3`,
      scoreSource: 'watched',
    });
    const lecture = await h.api('GET', `/api/lectures/${lectureId}`, { as: launch.token });
    expect(lecture.status).toBe(200);

    // The same person's second launch keeps the same account.
    const second = await lms.playLaunch(h.baseUrl, lms.prepareLaunch(spec));
    expect((await h.api('GET', '/api/users', { as: second.token })).json._id).toBe(studentId);
    expect(await h.db.$count(users, eq(users.username, 'Sam Student'))).toBe(1);
  });

  test('without the state cookie, Platform Storage binds the launch: the app gets the token only after the check', async () => {
    const spec = { sub: 'student-1', roles: [ROLES.learner], context: { id: 'course-bio' } };
    const launch = await lms.playLaunch(h.baseUrl, lms.prepareLaunch(spec), {
      storageTarget: '_parent',
      withoutCookie: true,
    });
    // The login kept state_<id> in the LMS's storage, addressed to the LMS's authentication origin.
    expect(lms.lastStoragePage).toContain("'lti.put_data'");
    expect(lms.lastStoragePage).toContain(`"origin":"${lms.issuer}"`);
    expect(launch.status).toBe(200);
    expect(launch.html).toContain("'lti.get_data'");
    expect(launch.html).toContain('"check":{"target":"_parent"');
    // No session cookie from the server: only the page sets it, once the LMS's storage answered the right value.
    expect(launch.headers.getSetCookie().some((line) => line.startsWith('token='))).toBe(false);
    expect(launch.token).toBeString();
  });

  test('a teacher with classes picks which one the LMS course is', async () => {
    const token = (
      await lms.playLaunch(
        h.baseUrl,
        lms.prepareLaunch({
          sub: 'teacher-1',
          roles: [ROLES.instructor],
          context: { id: 'course-bio' },
        }),
      )
    ).token as string;
    const launch = await lms.playLaunch(
      h.baseUrl,
      lms.prepareLaunch({ sub: 'teacher-1', roles: [ROLES.instructor], context: { id: 'course-chem', title: 'Chem' } }),
    );
    expect(launch.status).toBe(200);
    expect(launch.html).toContain('Which class is this LMS course?');
    expect(launch.html).toContain('Create a new class');
    expect(launch.html).toContain('Biology 101');
    const request = /name="request" value="([^"]+)"/.exec(launch.html)?.[1] as string;
    const before = h.snapshot();
    const stranger = await fetch(`${h.baseUrl}/api/lti/context`, {
      method: 'POST',
      body: new URLSearchParams({ request, pick: 'not-their-class' }),
    });
    expect(stranger.status).toBe(403);
    expect(h.snapshot()).toEqual(before);
    const picked = await fetch(`${h.baseUrl}/api/lti/context`, {
      method: 'POST',
      body: new URLSearchParams({ request, pick: courseId }),
    });
    expect(picked.status).toBe(200);
    expect(await picked.text()).toContain(`/classroom/${courseId}?lti=1`);
    const [context] = await h.db.select().from(ltiContexts).where(eq(ltiContexts.contextId, 'course-chem'));
    expect(context.courseId).toBe(courseId);
    expect((await h.api('GET', '/api/courses', { as: token })).json).toHaveLength(1);
  });

  test('a password account with the LMS email is never entered', async () => {
    const owner = await h.signUp('student', 'Pat Owner');
    const launch = await lms.playLaunch(
      h.baseUrl,
      lms.prepareLaunch({
        sub: 'student-2',
        name: 'Pat From LMS',
        email: owner.email,
        roles: [ROLES.learner],
        context: { id: 'course-bio' },
      }),
    );
    expect(launch.status).toBe(200);
    const me = await h.api('GET', '/api/users', { as: launch.token });
    expect(me.json._id).not.toBe(owner.user._id);
    expect(me.json.email).not.toBe(owner.email);
    const [account] = await h.db.select().from(users).where(eq(users.id, owner.user._id));
    expect(account.passwordHash).not.toBe('');
    // The owner still signs in with their password, to their own account.
    const login = await h.api('POST', '/api/users/login', { body: { email: owner.email, password: TEST_PASSWORD } });
    expect(login.json.user._id).toBe(owner.user._id);
  });

  test('a student in a course no teacher has opened yet gets a clear page and no session', async () => {
    const before = await sessionCount();
    const launch = await lms.playLaunch(
      h.baseUrl,
      lms.prepareLaunch({ sub: 'student-3', roles: [ROLES.learner], context: { id: 'course-new' } }),
    );
    expect(launch.status).toBe(403);
    expect(launch.html).toContain('Your teacher has not set up this course yet');
    expect(await sessionCount()).toBe(before);
  });

  test('a role that is neither teacher nor learner is refused with a clear page and no session', async () => {
    const before = h.snapshot();
    const launch = await lms.playLaunch(
      h.baseUrl,
      lms.prepareLaunch({ sub: 'mentor-1', roles: [ROLES.mentor], context: { id: 'course-bio' } }),
    );
    expect(launch.status).toBe(403);
    expect(launch.html).toContain('Only the course&#39;s teachers and students can open this class');
    expect(launch.token).toBeUndefined();
    // Only the spent nonce is new: no account, no session.
    const after = h.snapshot();
    expect(after.sessions).toEqual(before.sessions);
    expect(after.users).toEqual(before.users);
  });
});

describe('refused launches: a clear page, and no session', () => {
  const student = (tamper: Parameters<LtiPlatform['prepareLaunch']>[0]['tamper']) =>
    lms.prepareLaunch({ sub: 'student-1', roles: [ROLES.learner], context: { id: 'course-bio' }, tamper });
  const cases = [
    { name: 'a wrong signature', tamper: { otherKey: true }, status: 401, text: 'its sign-in could not be checked' },
    {
      name: 'a wrong aud',
      tamper: { audience: 'someone-else' },
      status: 401,
      text: 'its sign-in could not be checked',
    },
    { name: 'an expired token', tamper: { expired: true }, status: 401, text: 'has expired or was already used' },
    { name: 'a nonce not ours', tamper: { nonce: 'made-up' }, status: 401, text: 'has expired or was already used' },
    { name: 'an unknown deployment', tamper: { deploymentId: 'dep-x' }, status: 403, text: 'is not set up' },
  ];
  for (const refusal of cases) {
    test(refusal.name, async () => {
      const before = h.snapshot();
      const launch = await lms.playLaunch(h.baseUrl, student(refusal.tamper));
      expect(launch.status).toBe(refusal.status);
      expect(launch.html).toContain(refusal.text);
      expect(launch.token).toBeUndefined();
      expect(h.snapshot()).toEqual(before);
    });
  }

  test('a launch with no state, or without the cookie of its login', async () => {
    const before = h.snapshot();
    const noState = await lms.playLaunch(h.baseUrl, student(undefined), { withoutState: true });
    expect(noState.status).toBe(400);
    expect(noState.html).toContain('has expired or was already used');
    const noCookie = await lms.playLaunch(h.baseUrl, student(undefined), { withoutCookie: true });
    expect(noCookie.status).toBe(401);
    expect(noCookie.token).toBeUndefined();
    expect(h.snapshot()).toEqual(before);
  });

  test('a replayed nonce: the same id_token posted twice enters once', async () => {
    const first = await lms.playLaunch(h.baseUrl, student(undefined));
    expect(first.status).toBe(200);
    const sessionsBefore = await sessionCount();
    const { idToken, state } = lms.lastLogin as { idToken: string; state: string };
    const replay = await lms.postLaunch(h.baseUrl, { idToken, state, cookie: first.cookie });
    expect(replay.status).toBe(401);
    expect(replay.html).toContain('has expired or was already used');
    expect(replay.token).toBeUndefined();
    expect(await sessionCount()).toBe(sessionsBefore);
  });
});

test('a platform the administrator removed can no longer start a login', async () => {
  const hint = lms.prepareLaunch({ sub: 'student-1', roles: [ROLES.learner], context: { id: 'course-bio' } });
  expect((await h.api('DELETE', `/api/admin/lti/platforms/${platformId}`, { as: admin.token })).status).toBe(200);
  const before = h.snapshot();
  const login = await fetch(
    `${h.baseUrl}/api/lti/login?iss=${encodeURIComponent(lms.issuer)}&login_hint=${hint}&target_link_uri=x&client_id=${lms.clientId}`,
    { redirect: 'manual', headers: { 'accept-language': 'en' } },
  );
  expect(login.status).toBe(400);
  expect(await login.text()).toContain('Your LMS is not set up to open this class');
  expect(login.headers.getSetCookie()).toEqual([]);
  expect(h.snapshot()).toEqual(before);
});
