import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { likes, viewMarks } from '../db/schema';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';
import { expectPermissions, expectRefused, type PermissionRow } from '../test/tables';

let h: Harness;
let teacher: Account;
let otherTeacher: Account;
let student: Account;
let classmate: Account;
let outsider: Account;
let courseId: string;
let lectureId: string;

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  const cast = await classScenario(h, {
    names: { teacher: 'Tina Teach', otherTeacher: 'Otis Other', student: 'Stan Student', outsider: 'Odin Outsider' },
    classmates: ['Cleo Classmate'],
    courseName: 'Engagement',
  });
  ({ teacher, otherTeacher, student, outsider } = cast);
  classmate = cast.classmates[0] as Account;
  courseId = cast.course?.id as string;
  const lecture = await h.api('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId, nameOfTopic: 'Talk', videoLink: null },
  });
  if (lecture.status !== 201)
    throw new Error(`setup: creating the lecture failed (${lecture.status}): ${lecture.text}`);
  lectureId = lecture.json._id;
});
afterAll(() => h?.close());

const lecture = async (as = student.token) => (await h.api('GET', `/api/lectures/${lectureId}`, { as })).json;

describe('likes', () => {
  test('a like counts once per user; liking again is refused; it can be taken back', async () => {
    const first = await h.api('PATCH', `/api/lectures/${lectureId}/like`, { as: student.token });
    expect(first.status).toBe(200);
    expect(first.json.noOfLikes).toBe(1);
    const again = await h.api('PATCH', `/api/lectures/${lectureId}/like`, { as: student.token });
    expect(again.status).toBe(409);
    expect((await lecture()).noOfLikes).toBe(1);
    expect((await lecture()).likedByMe).toBe(true);
    const listed = (await h.api('GET', `/api/lectures/course/${courseId}`, { as: student.token })).json;
    expect(listed[0]).toMatchObject({ likedByMe: true, noOfLikes: 1 });
    expect((await lecture(classmate.token)).likedByMe).toBe(false);
    const undo = await h.api('DELETE', `/api/lectures/${lectureId}/like`, { as: student.token });
    expect(undo.json).toEqual({ noOfLikes: 0, liked: false });
    const undoAgain = await h.api('DELETE', `/api/lectures/${lectureId}/like`, { as: student.token });
    expect(undoAgain.json.noOfLikes).toBe(0);
  });

  test('concurrent likes from many users keep the count exact', async () => {
    const crowd = await Promise.all(Array.from({ length: 8 }, (_, i) => h.signUp('student', `Crowd ${i}`)));
    const code = (await h.api('GET', `/api/courses/${courseId}`, { as: teacher.token })).json.inviteCode;
    await Promise.all(
      crowd.map((who) => h.api('POST', '/api/enrollments/join', { as: who.token, body: { inviteCode: code } })),
    );
    const results = await Promise.all(
      crowd.flatMap((who) => [
        h.api('PATCH', `/api/lectures/${lectureId}/like`, { as: who.token }),
        h.api('PATCH', `/api/lectures/${lectureId}/like`, { as: who.token }),
      ]),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(8);
    expect(results.filter((r) => r.status === 409)).toHaveLength(8);
    const rows = await h.db.$count(likes, eq(likes.lectureId, lectureId));
    expect((await lecture()).noOfLikes).toBe(rows);
    expect(rows).toBe(8);
  });
});

describe('views', () => {
  test('a view counts at most once per user per hour', async () => {
    const before = (await lecture()).noOfViews;
    const first = await h.api('PATCH', `/api/lectures/${lectureId}/view`, { as: student.token });
    expect(first.json).toEqual({ noOfViews: before + 1, counted: true });
    const reload = await h.api('PATCH', `/api/lectures/${lectureId}/view`, { as: student.token });
    expect(reload.json).toEqual({ noOfViews: before + 1, counted: false });
    const other = await h.api('PATCH', `/api/lectures/${lectureId}/view`, { as: classmate.token });
    expect(other.json.noOfViews).toBe(before + 2);
    // An hour and a moment later.
    await h.db
      .update(viewMarks)
      .set({ countedAt: sql`${viewMarks.countedAt} - 3600001` })
      .where(eq(viewMarks.userId, student.user._id));
    const later = await h.api('PATCH', `/api/lectures/${lectureId}/view`, { as: student.token });
    expect(later.json).toEqual({ noOfViews: before + 3, counted: true });
  });
});

describe('comments', () => {
  test('newest first, trimmed, plain text, with the author; blank and over-long refused', async () => {
    const texts = ['First!', '  <script>alert(1)</script>  ', 'Third'];
    for (const text of texts) {
      const posted = await h.api('POST', `/api/lectures/${lectureId}/comments`, { as: student.token, body: { text } });
      expect(posted.status).toBe(201);
      await Bun.sleep(5);
    }
    const list = await h.api('GET', `/api/lectures/${lectureId}/comments`, { as: classmate.token });
    expect(list.json.map((c: { text: string }) => c.text)).toEqual(['Third', '<script>alert(1)</script>', 'First!']);
    expect(list.json[0].userId).toEqual({
      _id: student.user._id,
      username: 'Stan Student',
      profilePictureImageLink: '/placeholder-avatar.svg',
    });
    expect(Number.isNaN(Date.parse(list.json[0].createdAt))).toBe(false);
    expect(list.json[0].parentId).toBeNull();
    for (const text of ['', '   ', 'x'.repeat(2001)]) {
      await expectRefused(h, {
        name: `comment of ${text.length} characters`,
        as: student.token,
        method: 'POST',
        path: `/api/lectures/${lectureId}/comments`,
        body: { text },
        status: 400,
        field: 'text',
      });
    }
    expect(
      (
        await h.api('POST', `/api/lectures/${lectureId}/comments`, {
          as: student.token,
          body: { text: 'y'.repeat(2000) },
        })
      ).status,
    ).toBe(201);
  });

  test('a reply carries its parentId (null on a top-level comment), in the POST answer and in the list', async () => {
    const question = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: student.token,
      body: { text: 'Why does the wave slow down?' },
    });
    expect(question.json.parentId).toBeNull();
    const reply = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: classmate.token,
      body: { text: 'The medium changes.', parentId: question.json._id },
    });
    expect(reply.status).toBe(201);
    expect(reply.json.parentId).toBe(question.json._id);
    const list = await h.api('GET', `/api/lectures/${lectureId}/comments`, { as: teacher.token });
    const byId = new Map(list.json.map((c: { _id: string }) => [c._id, c]));
    expect(byId.get(reply.json._id)).toMatchObject({
      _id: reply.json._id,
      text: 'The medium changes.',
      parentId: question.json._id,
      userId: { _id: classmate.user._id },
    });
    expect(Object.keys(byId.get(question.json._id) as object).sort()).toEqual(
      ['_id', 'createdAt', 'parentId', 'text', 'userId'].sort(),
    );
  });

  test('the author and the teacher can delete a comment; a classmate cannot', async () => {
    const mine = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: student.token,
      body: { text: 'delete me' },
    });
    await expectRefused(h, {
      name: 'a classmate deletes it',
      as: classmate.token,
      method: 'DELETE',
      path: `/api/lectures/${lectureId}/comments/${mine.json._id}`,
      status: 403,
    });
    const byAuthor = await h.api('DELETE', `/api/lectures/${lectureId}/comments/${mine.json._id}`, {
      as: student.token,
    });
    expect(byAuthor.status).toBe(200);
    const theirs = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
      as: classmate.token,
      body: { text: 'rude' },
    });
    const byTeacher = await h.api('DELETE', `/api/lectures/${lectureId}/comments/${theirs.json._id}`, {
      as: teacher.token,
    });
    expect(byTeacher.status).toBe(200);
    const texts = (await h.api('GET', `/api/lectures/${lectureId}/comments`, { as: student.token })).json.map(
      (c: { text: string }) => c.text,
    );
    expect(texts).not.toContain('delete me');
    expect(texts).not.toContain('rude');
  });
});

describe('progress and history', () => {
  test('the position is saved and read back on any device; finishing marks it complete; history lists it', async () => {
    const saved = await h.api('PUT', `/api/lectures/${lectureId}/progress`, {
      as: student.token,
      body: { position: 42.5, duration: 600 },
    });
    expect(saved.json).toMatchObject({ position: 42.5, duration: 600, completed: false });
    expect((await lecture()).myProgress).toEqual({ position: 42.5, duration: 600, completed: false });
    const listed = (await h.api('GET', `/api/lectures/course/${courseId}`, { as: student.token })).json;
    expect(listed[0].myProgress).toEqual({ position: 42.5, duration: 600, completed: false });
    expect((await lecture(classmate.token)).myProgress).toBeNull();

    await h.api('PUT', `/api/lectures/${lectureId}/progress`, {
      as: student.token,
      body: { position: 300, duration: 600 },
    });
    const history = await h.api('GET', '/api/history', { as: student.token });
    expect(history.json[0]).toMatchObject({
      lectureId,
      nameOfTopic: 'Talk',
      courseId,
      courseName: 'Engagement',
      position: 300,
      watchedPercent: 50,
      completed: false,
    });
    // Rewinding keeps how much was watched.
    await h.api('PUT', `/api/lectures/${lectureId}/progress`, {
      as: student.token,
      body: { position: 10, duration: 600 },
    });
    expect((await h.api('GET', '/api/history', { as: student.token })).json[0].watchedPercent).toBe(50);
    const done = await h.api('PUT', `/api/lectures/${lectureId}/progress`, {
      as: student.token,
      body: { position: 598, duration: 600 },
    });
    expect(done.json.completed).toBe(true);

    const table = await h.api('GET', `/api/lectures/course/${courseId}/progress`, { as: teacher.token });
    const row = table.json.lectures.find((l: { _id: string }) => l._id === lectureId);
    expect(row).toMatchObject({ started: 1, finished: 1 });
    expect(row.watchers[0]).toMatchObject({ studentId: student.user._id, completed: true });
    expect((await h.api('GET', `/api/lectures/course/${courseId}/progress`, { as: student.token })).status).toBe(403);

    for (const body of [
      { position: -1, duration: 10 },
      { position: 1, duration: 0 },
      { position: 'x', duration: 10 },
      {},
    ]) {
      expect((await h.api('PUT', `/api/lectures/${lectureId}/progress`, { as: student.token, body })).status).toBe(400);
    }
  });
});

test('permission table: engagement routes, as everyone', async () => {
  const who = {
    anonymous: undefined,
    owner: teacher.token,
    otherTeacher: otherTeacher.token,
    student: student.token,
    outsider: outsider.token,
  };
  const comment = await h.api('POST', `/api/lectures/${lectureId}/comments`, {
    as: classmate.token,
    body: { text: 'keep' },
  });
  const rows: PermissionRow<keyof typeof who>[] = [
    { name: 'view', method: 'PATCH', path: `/api/lectures/${lectureId}/view`, allowed: ['owner', 'student'] },
    { name: 'unlike', method: 'DELETE', path: `/api/lectures/${lectureId}/like`, allowed: ['owner', 'student'] },
    { name: 'comments', method: 'GET', path: `/api/lectures/${lectureId}/comments`, allowed: ['owner', 'student'] },
    {
      name: 'comment',
      method: 'POST',
      path: `/api/lectures/${lectureId}/comments`,
      body: { text: 'hi' },
      allowed: ['owner', 'student'],
    },
    {
      name: 'progress',
      method: 'PUT',
      path: `/api/lectures/${lectureId}/progress`,
      body: { position: 1, duration: 10 },
      allowed: ['owner', 'student'],
    },
    { name: 'teacher table', method: 'GET', path: `/api/lectures/course/${courseId}/progress`, allowed: ['owner'] },
    { name: 'history', method: 'GET', path: '/api/history', allowed: ['owner', 'otherTeacher', 'student', 'outsider'] },
  ];
  await expectPermissions(h, who, rows, { otherTeacher: 404, student: 403, outsider: 404 });
  // The teacher's comment: nobody else may delete it (a student of the class 403, outsiders the lecture's 404).
  const refusedAs = { anonymous: 401, otherTeacher: 404, student: 403, outsider: 404 };
  for (const [name, status] of Object.entries(refusedAs)) {
    await expectRefused(h, {
      name: `delete the teacher's comment as ${name}`,
      as: who[name as keyof typeof who],
      method: 'DELETE',
      path: `/api/lectures/${lectureId}/comments/${comment.json._id}`,
      status,
    });
  }
  // The outsider's history never shows a class they cannot read.
  expect((await h.api('GET', '/api/history', { as: outsider.token })).json).toEqual([]);
});
