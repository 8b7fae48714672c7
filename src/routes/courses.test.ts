import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { INVITE_ALPHABET } from '../contract/limits';
import { courses, enrollments, notes } from '../db/schema';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario, joinClass } from '../test/scenario';
import { expectPermissions, expectRefused, type PermissionRow } from '../test/tables';

let h: Harness;
let owner: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;

beforeAll(async () => {
  h = await startHarness();
  const cast = await classScenario(h, {
    names: { teacher: 'Olga Owner', otherTeacher: 'Theo Other', student: 'Sam Student', outsider: 'Oscar Outsider' },
  });
  ({ teacher: owner, otherTeacher, student, outsider } = cast);
});
afterAll(() => h?.close());

const createCourse = async (name = 'Physics 101', by = owner) => {
  const result = await h.api('POST', '/api/courses', {
    as: by.token,
    body: { courseName: name, teacherId: by.user._id, semester: 2 },
  });
  expect(result.status).toBe(201);
  return result.json;
};

describe('classes', () => {
  test('a teacher creates a class with a readable invite code; the student joins by code in any case', async () => {
    const course = await createCourse('  Physics 101  ');
    expect(course).toMatchObject({ courseName: 'Physics 101', semester: 2, teacherId: owner.user._id });
    expect(course.inviteCode).toBe(course.classCode);
    expect(course.inviteCode).toMatch(new RegExp(`^[${INVITE_ALPHABET}]{6,8}$`));
    expect(course.inviteCode).not.toMatch(/[01OIL]/);

    const joined = await h.api('POST', '/api/enrollments/join', {
      as: student.token,
      body: { inviteCode: ` ${course.inviteCode.toLowerCase()} ` },
    });
    expect(joined.status).toBe(201);
    expect(joined.json.courseId).toBe(course._id);
    const again = await h.api('POST', '/api/enrollments', {
      as: student.token,
      body: { studentId: student.user._id, classCode: course.classCode },
    });
    expect(again.status).toBe(200);
    expect(again.json._id).toBe(joined.json._id);
    expect(await h.db.$count(enrollments, eq(enrollments.courseId, course._id))).toBe(1);

    const list = await h.api('GET', '/api/courses', { as: student.token });
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).toMatchObject({
      _id: course._id,
      courseName: 'Physics 101',
      inviteCode: course.inviteCode,
      classCode: course.inviteCode,
      teacherId: { _id: owner.user._id, username: 'Olga Owner' },
    });
    const teacherList = await h.api('GET', '/api/courses', { as: owner.token });
    expect(teacherList.json.map((c: { _id: string }) => c._id)).toContain(course._id);
    const otherList = await h.api('GET', '/api/courses', { as: otherTeacher.token });
    expect(otherList.json.map((c: { _id: string }) => c._id)).not.toContain(course._id);
  });

  test('an unknown code answers 404 with a message; a teacher cannot enroll; nobody enrolls someone else', async () => {
    const unknown = await h.api('POST', '/api/enrollments/join', {
      as: student.token,
      body: { inviteCode: 'ZZZZZZZ' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toContain('No class has this code');
    const course = await createCourse('Chemistry');
    const teacherJoin = await h.api('POST', '/api/enrollments/join', {
      as: otherTeacher.token,
      body: { inviteCode: course.inviteCode },
    });
    expect(teacherJoin.status).toBe(403);
    const forSomeoneElse = await h.api('POST', '/api/enrollments', {
      as: student.token,
      body: { studentId: outsider.user._id, classCode: course.inviteCode },
    });
    expect(forSomeoneElse.status).toBe(403);
    expect(await h.db.$count(enrollments, eq(enrollments.courseId, course._id))).toBe(0);
    const ownerScan = await h.api('POST', '/api/enrollments/join', {
      as: owner.token,
      body: { inviteCode: course.inviteCode },
    });
    expect(ownerScan.status).toBe(200);
    expect(ownerScan.json.courseId).toBe(course._id);
  });

  test('regenerating the code stops the old code at once', async () => {
    const course = await createCourse('Biology');
    const regenerated = await h.api('POST', `/api/courses/${course._id}/invite-code`, { as: owner.token });
    expect(regenerated.status).toBe(200);
    expect(regenerated.json.inviteCode).not.toBe(course.inviteCode);
    const old = await h.api('POST', '/api/enrollments/join', {
      as: student.token,
      body: { inviteCode: course.inviteCode },
    });
    expect(old.status).toBe(404);
    const fresh = await h.api('POST', '/api/enrollments/join', {
      as: student.token,
      body: { inviteCode: regenerated.json.inviteCode },
    });
    expect(fresh.status).toBe(201);
  });

  test('an invite link names its class and teacher to anyone, before sign-in; a dead one says so', async () => {
    const course = await createCourse('Physics 101');
    const preview = await h.api('GET', `/api/invites/${course.inviteCode.toLowerCase()}`);
    expect(preview.status).toBe(200);
    expect(preview.json).toEqual({ courseName: 'Physics 101', teacherName: owner.user.username });
    const regenerated = await h.api('POST', `/api/courses/${course._id}/invite-code`, { as: owner.token });
    const dead = await h.api('GET', `/api/invites/${course.inviteCode}`);
    expect(dead.status).toBe(404);
    expect(dead.json.message).toBe('This invite link no longer works. Ask your teacher for the class code.');
    expect((await h.api('GET', `/api/invites/${regenerated.json.inviteCode}`)).json.courseName).toBe('Physics 101');
    expect((await h.api('GET', `/api/invites/${'X'.repeat(40)}`)).status).toBe(400);
  });

  test('renaming and deleting; deleting takes enrollments and notes with it', async () => {
    const course = await createCourse('History');
    await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.inviteCode } });
    await h.api('PATCH', `/api/enrollments/${course._id}/notes`, { as: student.token, body: { notes: 'Rome' } });
    // The spec's client renames without a bearer header: the token cookie carries it.
    const renamed = await h.api('PATCH', `/api/courses/${course._id}`, {
      headers: { cookie: `token=${owner.token}` },
      body: { courseName: 'World History' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.courseName).toBe('World History');
    const deleted = await h.api('DELETE', `/api/courses/${course._id}`, { as: owner.token });
    expect(deleted.status).toBe(200);
    expect(await h.db.$count(courses, eq(courses.id, course._id))).toBe(0);
    expect(await h.db.$count(enrollments, eq(enrollments.courseId, course._id))).toBe(0);
    expect(await h.db.$count(notes, eq(notes.courseId, course._id))).toBe(0);
    expect((await h.api('GET', `/api/courses/${course._id}`, { as: owner.token })).status).toBe(404);
  });

  test('notes are private to each user, stored verbatim, up to 100,000 characters', async () => {
    const course = await createCourse('Maths');
    const classmate = await h.signUp('student', 'Cora Classmate');
    for (const who of [student, classmate]) {
      await h.api('POST', '/api/enrollments/join', { as: who.token, body: { inviteCode: course.inviteCode } });
    }
    const text = '  <b>Integrals</b>\n\tnot HTML, kept as typed 🙂  ';
    const saved = await h.api('PATCH', `/api/enrollments/${course._id}/notes`, {
      as: student.token,
      body: { notes: text },
    });
    expect(saved.status).toBe(200);
    expect((await h.api('GET', `/api/enrollments/${course._id}/notes`, { as: student.token })).json.notes).toBe(text);
    expect((await h.api('GET', `/api/enrollments/${course._id}/notes`, { as: classmate.token })).json.notes).toBe('');
    expect((await h.api('GET', `/api/enrollments/${course._id}/notes`, { as: owner.token })).json.notes).toBe('');
    const big = 'x'.repeat(100_000);
    expect(
      (await h.api('PATCH', `/api/enrollments/${course._id}/notes`, { as: student.token, body: { notes: big } }))
        .status,
    ).toBe(200);
    const tooBig = await h.api('PATCH', `/api/enrollments/${course._id}/notes`, {
      as: student.token,
      body: { notes: `${big}x` },
    });
    expect(tooBig.status).toBe(400);
    expect((await h.api('GET', `/api/enrollments/${course._id}/notes`, { as: student.token })).json.notes).toBe(big);
  });
});

describe('bad input', () => {
  const cases: { name: string; body: unknown; field: string }[] = [
    { name: 'blank name', body: { courseName: '   ', semester: 1 }, field: 'courseName' },
    { name: 'missing name', body: { semester: 1 }, field: 'courseName' },
    { name: 'name too long', body: { courseName: 'n'.repeat(121) }, field: 'courseName' },
    { name: 'semester 0', body: { courseName: 'A', semester: 0 }, field: 'semester' },
    { name: 'semester 13', body: { courseName: 'A', semester: 13 }, field: 'semester' },
    { name: 'semester 1.5', body: { courseName: 'A', semester: 1.5 }, field: 'semester' },
    { name: 'semester text', body: { courseName: 'A', semester: 'spring' }, field: 'semester' },
    { name: 'teacherId wrong type', body: { courseName: 'A', teacherId: 5 }, field: 'teacherId' },
  ];
  for (const { name, body, field } of cases) {
    test(`create class: ${name}`, async () => {
      await expectRefused(h, { name, as: owner.token, method: 'POST', path: '/api/courses', body, status: 400, field });
    });
  }

  test('a class for another teacher is refused and nothing is created', async () => {
    await expectRefused(h, {
      name: 'class for another teacher',
      as: owner.token,
      method: 'POST',
      path: '/api/courses',
      body: { courseName: 'Stolen', teacherId: otherTeacher.user._id },
      status: 403,
    });
  });

  test('join: blank and over-long codes; a malformed course id', async () => {
    const join = { as: student.token, method: 'POST', path: '/api/enrollments/join', status: 400, field: 'inviteCode' };
    await expectRefused(h, { ...join, name: 'blank code', body: { inviteCode: '  ' } });
    await expectRefused(h, { ...join, name: 'long code', body: { inviteCode: 'A'.repeat(40) } });
    await expectRefused(h, {
      name: 'malformed id',
      as: student.token,
      method: 'GET',
      path: '/api/courses/..%2F..%2Fetc',
      status: 400,
      field: 'id',
    });
  });
});

describe('permission table: every courses and enrollments route, as everyone', () => {
  type Who = 'anonymous' | 'owner' | 'otherTeacher' | 'student' | 'outsider';
  const everyone: Who[] = ['anonymous', 'owner', 'otherTeacher', 'student', 'outsider'];
  // A member who may not do something gets 403; anyone outside the class the class's 404.
  const refusedAs = { otherTeacher: 404, student: 403, outsider: 404 };
  let course: { _id: string; inviteCode: string };

  beforeAll(async () => {
    course = await createCourse('Permissions 101');
    await joinClass(h, student, course.inviteCode);
  });

  const tokenOf = (who: Who) =>
    ({
      anonymous: undefined,
      owner: owner.token,
      otherTeacher: otherTeacher.token,
      student: student.token,
      outsider: outsider.token,
    })[who];
  const idOf = (who: Who) =>
    ({
      anonymous: student.user._id,
      owner: owner.user._id,
      otherTeacher: otherTeacher.user._id,
      student: student.user._id,
      outsider: outsider.user._id,
    })[who];
  const tokens = () =>
    Object.fromEntries(everyone.map((who) => [who, tokenOf(who)])) as Record<Who, string | undefined>;

  // Each row lists who is allowed (2xx); everyone else is refused with the table's status and changes nothing.
  const routes = (): PermissionRow<Who>[] => [
    {
      name: 'GET /api/courses',
      method: 'GET',
      path: '/api/courses',
      allowed: ['owner', 'otherTeacher', 'student', 'outsider'],
    },
    { name: 'GET /api/courses/{id}', method: 'GET', path: `/api/courses/${course._id}`, allowed: ['owner', 'student'] },
    {
      name: 'PATCH /api/courses/{id}',
      method: 'PATCH',
      path: `/api/courses/${course._id}`,
      body: { courseName: 'Permissions 101' },
      allowed: ['owner'],
    },
    { name: 'GET notes', method: 'GET', path: `/api/enrollments/${course._id}/notes`, allowed: ['owner', 'student'] },
    {
      name: 'PATCH notes',
      method: 'PATCH',
      path: `/api/enrollments/${course._id}/notes`,
      body: { notes: 'mine' },
      allowed: ['owner', 'student'],
    },
    {
      name: 'POST /api/enrollments (self)',
      method: 'POST',
      path: '/api/enrollments',
      body: (who: Who) => ({ studentId: idOf(who), classCode: course.inviteCode }),
      allowed: ['student', 'outsider', 'owner'],
      refused: { otherTeacher: 403 },
    },
    {
      name: 'POST /api/courses',
      method: 'POST',
      path: '/api/courses',
      body: (who: Who) => ({ courseName: `By ${who}`, teacherId: idOf(who) }),
      allowed: ['owner', 'otherTeacher'],
      refused: { student: 403, outsider: 403 },
    },
  ];

  test('every route as everyone', async () => {
    await expectPermissions(h, tokens(), routes(), refusedAs);
  });

  test('an outsider gets the same 404 for a real class as for a missing one', async () => {
    const stranger = await h.signUp('student', 'Stella Stranger');
    const real = await h.api('GET', `/api/courses/${course._id}`, { as: stranger.token });
    const missing = await h.api('GET', '/api/courses/doesNotExist123', { as: stranger.token });
    expect(real.status).toBe(404);
    expect(real.json).toEqual(missing.json);
  });

  test('regenerate and delete: only the owner; the others change nothing', async () => {
    // The outsider enrolled itself in the table above (anyone with the code may), so it is a student now.
    const status = { anonymous: 401, ...refusedAs, outsider: 403 };
    for (const who of ['anonymous', 'otherTeacher', 'student', 'outsider'] as const) {
      for (const [method, path] of [
        ['POST', `/api/courses/${course._id}/invite-code`],
        ['DELETE', `/api/courses/${course._id}`],
      ]) {
        await expectRefused(h, { name: `${method} as ${who}`, as: tokenOf(who), method, path, status: status[who] });
      }
    }
    const still = await h.api('GET', `/api/courses/${course._id}`, { as: owner.token });
    expect(still.json.inviteCode).toBe(course.inviteCode);
    expect((await h.api('POST', `/api/courses/${course._id}/invite-code`, { as: owner.token })).status).toBe(200);
    expect((await h.api('DELETE', `/api/courses/${course._id}`, { as: owner.token })).status).toBe(200);
  });
});
