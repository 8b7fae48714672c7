import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { INVITE_ALPHABET } from '../contract/limits';
import { type Harness, startHarness } from '../test/harness';

let h: Harness;
type Account = Awaited<ReturnType<Harness['signUp']>>;
let owner: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;

beforeAll(async () => {
  h = await startHarness();
  [owner, otherTeacher, student, outsider] = await Promise.all([
    h.signUp('teacher', 'Olga Owner'),
    h.signUp('teacher', 'Theo Other'),
    h.signUp('student', 'Sam Student'),
    h.signUp('student', 'Oscar Outsider'),
  ]);
});
afterAll(() => h.close());

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
    const count = h.sqlite
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM enrollments WHERE course_id = ?')
      .get(course._id);
    expect(count?.n).toBe(1);

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
    const rows = h.sqlite
      .query<{ n: number }, [string]>('SELECT count(*) AS n FROM enrollments WHERE course_id = ?')
      .get(course._id);
    expect(rows?.n).toBe(0);
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
    for (const table of ['courses', 'enrollments', 'notes']) {
      const column = table === 'courses' ? 'id' : 'course_id';
      const row = h.sqlite
        .query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
        .get(course._id);
      expect(row?.n).toBe(0);
    }
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
      const before = h.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM courses').get()?.n;
      const result = await h.api('POST', '/api/courses', { as: owner.token, body });
      expect(result.status).toBe(400);
      expect(result.json.fields[field]).toBeString();
      expect(h.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM courses').get()?.n).toBe(before);
    });
  }

  test('a class for another teacher is refused and nothing is created', async () => {
    const before = h.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM courses').get()?.n;
    const result = await h.api('POST', '/api/courses', {
      as: owner.token,
      body: { courseName: 'Stolen', teacherId: otherTeacher.user._id },
    });
    expect(result.status).toBe(403);
    expect(h.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM courses').get()?.n).toBe(before);
  });

  test('join: blank and over-long codes; a malformed course id', async () => {
    expect(
      (await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: '  ' } })).status,
    ).toBe(400);
    expect(
      (await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: 'A'.repeat(40) } }))
        .status,
    ).toBe(400);
    expect((await h.api('GET', '/api/courses/..%2F..%2Fetc', { as: student.token })).status).toBe(400);
  });
});

describe('permission table: every courses and enrollments route, as everyone', () => {
  type Who = 'anonymous' | 'owner' | 'otherTeacher' | 'student' | 'outsider';
  const everyone: Who[] = ['anonymous', 'owner', 'otherTeacher', 'student', 'outsider'];
  let course: { _id: string; inviteCode: string };

  beforeAll(async () => {
    course = await createCourse('Permissions 101');
    await h.api('POST', '/api/enrollments/join', { as: student.token, body: { inviteCode: course.inviteCode } });
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

  // Read-only and idempotent routes first; each row lists who is allowed (2xx).
  const routes: { name: string; allowed: Who[]; call: (who: Who) => [string, string, unknown?] }[] = [
    {
      name: 'GET /api/courses',
      allowed: ['owner', 'otherTeacher', 'student', 'outsider'],
      call: () => ['GET', '/api/courses'],
    },
    { name: 'GET /api/courses/{id}', allowed: ['owner', 'student'], call: () => ['GET', `/api/courses/${course._id}`] },
    {
      name: 'PATCH /api/courses/{id}',
      allowed: ['owner'],
      call: () => ['PATCH', `/api/courses/${course._id}`, { courseName: 'Permissions 101' }],
    },
    { name: 'GET notes', allowed: ['owner', 'student'], call: () => ['GET', `/api/enrollments/${course._id}/notes`] },
    {
      name: 'PATCH notes',
      allowed: ['owner', 'student'],
      call: () => ['PATCH', `/api/enrollments/${course._id}/notes`, { notes: 'mine' }],
    },
    {
      name: 'POST /api/enrollments (self)',
      allowed: ['student', 'outsider', 'owner'],
      call: (who) => ['POST', '/api/enrollments', { studentId: idOf(who), classCode: course.inviteCode }],
    },
    {
      name: 'POST /api/courses',
      allowed: ['owner', 'otherTeacher'],
      call: (who) => ['POST', '/api/courses', { courseName: `By ${who}`, teacherId: idOf(who) }],
    },
  ];

  for (const route of routes) {
    test(route.name, async () => {
      const allowedNow: Who[] = [];
      for (const who of everyone) {
        const [method, path, body] = route.call(who);
        const result = await h.api(method, path, { as: tokenOf(who), body });
        if (result.status < 300) allowedNow.push(who);
        else {
          expect([400, 401, 403, 404]).toContain(result.status);
          if (who === 'anonymous') expect(result.status).toBe(401);
        }
      }
      expect(allowedNow.sort()).toEqual([...route.allowed].sort());
    });
  }

  test('an outsider gets the same 404 for a real class as for a missing one', async () => {
    const stranger = await h.signUp('student', 'Stella Stranger');
    const real = await h.api('GET', `/api/courses/${course._id}`, { as: stranger.token });
    const missing = await h.api('GET', '/api/courses/doesNotExist123', { as: stranger.token });
    expect(real.status).toBe(404);
    expect(real.json).toEqual(missing.json);
  });

  test('regenerate and delete: only the owner; the others change nothing', async () => {
    for (const who of ['anonymous', 'otherTeacher', 'student', 'outsider'] as Who[]) {
      const regenerated = await h.api('POST', `/api/courses/${course._id}/invite-code`, { as: tokenOf(who) });
      expect(regenerated.status).toBeGreaterThanOrEqual(401);
      const deleted = await h.api('DELETE', `/api/courses/${course._id}`, { as: tokenOf(who) });
      expect(deleted.status).toBeGreaterThanOrEqual(401);
    }
    const still = await h.api('GET', `/api/courses/${course._id}`, { as: owner.token });
    expect(still.json.inviteCode).toBe(course.inviteCode);
    expect((await h.api('POST', `/api/courses/${course._id}/invite-code`, { as: owner.token })).status).toBe(200);
    expect((await h.api('DELETE', `/api/courses/${course._id}`, { as: owner.token })).status).toBe(200);
  });
});
