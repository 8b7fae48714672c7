import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq, sql } from 'drizzle-orm';
import { masterPlaylistPath } from '../contract/videos';
import { courseCoverage, lecturePartTotals, questionAnswers, videos, watchCoverage } from '../db/schema';
import { newId } from '../lib/ids';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario, createClass, joinClass } from '../test/scenario';

/** A ten-minute video: a part is 6 s. */
const DURATION = 600;

let h: Harness;
let admin: Account;
let teacher: Account;
let student: Account;
let outsider: Account;
let courseId: string;

/** A lecture with a ready video of `seconds` (made in the database: no transcode), through the API. */
async function lectureWithVideo(name: string, seconds = DURATION, course = courseId, owner = teacher) {
  const videoId = newId();
  await h.db.insert(videos).values({
    id: videoId,
    ownerId: owner.user._id,
    status: 'ready',
    sourceName: `${name}.mp4`,
    sourceBytes: 1,
    durationMs: seconds * 1000,
    width: 640,
    height: 360,
    hasAudio: false,
    plan: '[]',
  });
  const made = await h.api('POST', '/api/lectures', {
    as: owner.token,
    body: { courseId: course, nameOfTopic: name, videoLink: masterPlaylistPath(videoId) },
  });
  if (made.status !== 201) throw new Error(`setup: lecture ${made.status} ${made.text}`);
  return made.json._id as string;
}

const report = (lectureId: string, as: string, body: unknown) =>
  h.api('POST', `/api/lectures/${lectureId}/coverage`, { as, body });

/** Lets `seconds` of real time pass for the cap: moves the last report back (what the clock would have done). */
async function letTimePass(userId: string, lectureId: string, seconds: number) {
  await h.db
    .update(watchCoverage)
    .set({ lastAt: sql`${watchCoverage.lastAt} - ${seconds * 1000}` })
    .where(and(eq(watchCoverage.userId, userId), eq(watchCoverage.lectureId, lectureId)));
}

/** Plays `from`..`to` at `rate`, reporting every 15 s of real time as the player does. */
async function play(lectureId: string, who: Account, from: number, to: number, rate = 1) {
  let answer: Awaited<ReturnType<typeof report>> | undefined;
  for (let at = from; at < to; at += 15 * rate) {
    answer = await report(lectureId, who.token, { ranges: [[at, Math.min(to, at + 15 * rate)]], rate });
    expect(answer.status).toBe(200);
    await letTimePass(who.user._id, lectureId, 15);
  }
  return answer?.json;
}

const rowsOf = async (lectureId: string) =>
  h.db.select().from(watchCoverage).where(eq(watchCoverage.lectureId, lectureId));

const partsOf = async (who: Account, lectureId: string, as = teacher.token) => {
  const page = await h.api('GET', `/api/courses/${courseId}/insight/students/${who.user._id}`, { as });
  expect(page.status).toBe(200);
  return page.json.lectures.find((row: { lectureId: string }) => row.lectureId === lectureId);
};

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  // The first account on a fresh install is the administrator.
  admin = await h.signUp('teacher', 'Ada Admin');
  const cast = await classScenario(h, {
    names: { teacher: 'Tess Teacher', student: 'Sam Student', outsider: 'Olga Outsider' },
    courseName: 'Optics',
  });
  ({ teacher, student, outsider } = cast);
  courseId = cast.course?.id as string;
  expect(admin.user.isAdmin).toBe(true);
  expect(student.user.isAdmin).toBe(false);
});
afterAll(() => h?.close());

describe('coverage reports', () => {
  test('half the lecture played at normal speed counts about 50%', async () => {
    const lectureId = await lectureWithVideo('Half');
    const last = await play(lectureId, student, 0, DURATION / 2);
    expect(last.capped).toBe(false);
    expect(last.percent).toBeGreaterThanOrEqual(45);
    expect(last.percent).toBeLessThanOrEqual(55);
    expect(last.completed).toBe(false);
    const row = await partsOf(student, lectureId);
    expect(row.percent).toBe(last.percent);
    expect(row.parts.slice(0, 50).every((count: number) => count === 1)).toBe(true);
    expect(row.parts.slice(51).every((count: number) => count === 0)).toBe(true);
  });

  test('a seek to the end counts only what was played', async () => {
    const lectureId = await lectureWithVideo('Seek');
    await play(lectureId, student, 0, 10);
    // The pupil drags to the end and plays the last 10 s.
    const answer = await report(lectureId, student.token, { ranges: [[590, 600]], rate: 1 });
    expect(answer.json).toEqual({ percent: 4, completed: false, capped: false });
    const row = await partsOf(student, lectureId);
    const played = row.parts.flatMap((count: number, part: number) => (count > 0 ? [part] : []));
    expect(played).toEqual([0, 1, 98, 99]);
  });

  test('2× speed is counted right: 15 s of real time covers 30 s of video', async () => {
    const lectureId = await lectureWithVideo('Fast');
    const last = await play(lectureId, student, 0, DURATION / 2, 2);
    expect(last.capped).toBe(false);
    expect(last.percent).toBeGreaterThanOrEqual(45);
    expect(last.percent).toBeLessThanOrEqual(55);
    // Claiming 4× is credited at 2× only.
    const faster = await lectureWithVideo('Faster');
    const answer = await report(faster, student.token, { ranges: [[0, 80]], rate: 4 });
    expect(answer.json.capped).toBe(true);
    const [row] = await rowsOf(faster);
    expect(row?.watchedSeconds).toBe(45);
  });

  test('a forged "everything" report is capped: the row holds only what time allows', async () => {
    const lectureId = await lectureWithVideo('Forged');
    const first = await report(lectureId, student.token, { ranges: [[0, DURATION]], rate: 1 });
    expect(first.status).toBe(200);
    expect(first.json.capped).toBe(true);
    expect(first.json.completed).toBe(false);
    // A first report may add 20 s at 1× plus 5 s of slack: 4 parts of 6 s.
    expect(first.json.percent).toBe(4);
    const [row] = await rowsOf(lectureId);
    expect(row?.watchedSeconds).toBe(25);
    expect(row?.completedAt).toBeNull();
    // Sent again at once, the same report adds nothing; another forged one adds only the seconds since.
    const again = await report(lectureId, student.token, { ranges: [[0, DURATION]], rate: 1 });
    expect(again.json.percent).toBe(4);
    expect((await rowsOf(lectureId))[0]?.watchedSeconds).toBe(25);
    const other = await report(lectureId, student.token, { ranges: [[100, DURATION]], rate: 2 });
    expect(other.json.capped).toBe(true);
    expect((await rowsOf(lectureId))[0]?.watchedSeconds).toBeLessThan(25 + 2 * 2 + 5 + 0.5);
  });

  test('an offline report may claim the whole video once an hour', async () => {
    const lectureId = await lectureWithVideo('Offline', 60);
    const answer = await report(lectureId, student.token, { ranges: [[0, 60]], rate: 1, offline: true });
    expect(answer.json).toEqual({ percent: 100, completed: true, capped: false });
    const second = await lectureWithVideo('Offline twice', 600);
    await report(second, student.token, { ranges: [[0, 300]], rate: 1, offline: true });
    const next = await report(second, student.token, { ranges: [[300, 600]], rate: 1, offline: true });
    expect(next.json.capped).toBe(true);
  });

  test("the teacher's and an administrator's views store nothing", async () => {
    const lectureId = await lectureWithVideo('Teacher watches');
    const byTeacher = await report(lectureId, teacher.token, { ranges: [[0, 10]], rate: 1 });
    expect(byTeacher.status).toBe(204);
    const byAdmin = await report(lectureId, admin.token, { ranges: [[0, 10]], rate: 1 });
    expect(byAdmin.status).toBe(204);
    expect(await rowsOf(lectureId)).toEqual([]);
  });

  test('a student of another class is refused, and nothing is stored', async () => {
    const lectureId = await lectureWithVideo('Private');
    const other = await createClass(h, admin, 'Elsewhere');
    await joinClass(h, outsider, other.inviteCode);
    const refused = await report(lectureId, outsider.token, { ranges: [[0, 10]], rate: 1 });
    expect(refused.status).toBe(404);
    expect(refused.json.code).toBe('lecture_not_found');
    expect(await rowsOf(lectureId)).toEqual([]);
    const anonymous = await h.api('POST', `/api/lectures/${lectureId}/coverage`, {
      body: { ranges: [[0, 10]], rate: 1 },
    });
    expect(anonymous.status).toBe(401);
  });

  test('bad and oversized reports are refused with 400 before anything is stored', async () => {
    const lectureId = await lectureWithVideo('Bad input');
    const many = Array.from({ length: 20_000 }, (_, i) => [i % 500, (i % 500) + 1]);
    const bodies: unknown[] = [
      { ranges: many, rate: 1 },
      { ranges: [], rate: 1 },
      { ranges: [[10, 5]], rate: 1 },
      { ranges: [[0, 10]], rate: 9 },
      { ranges: [[-1, 10]], rate: 1 },
      { ranges: [[0, DURATION + 30]], rate: 1 },
      { ranges: [[0, 'x']], rate: 1 },
      { ranges: [[0, 10]], rate: 1, extra: true },
      { ranges: [[0, 10]] },
    ];
    for (const body of bodies) {
      const answer = await report(lectureId, student.token, body);
      expect(answer.status).toBe(400);
      expect(answer.json.code).toBe('invalid_input');
    }
    const huge = await h.api('POST', `/api/lectures/${lectureId}/coverage`, {
      as: student.token,
      body: JSON.stringify({ ranges: [[0, 10]], rate: 1, pad: 'x'.repeat(100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(400);
    expect(await rowsOf(lectureId)).toEqual([]);
  });

  test('a lecture without a video answers 409 no_video', async () => {
    const made = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'No video', videoLink: null },
    });
    const answer = await report(made.json._id, student.token, { ranges: [[0, 10]], rate: 1 });
    expect(answer.status).toBe(409);
    expect(answer.json.code).toBe('no_video');
  });
});

describe("the teacher's view", () => {
  let course: string;
  let lectureA: string;
  let lectureB: string;
  let pupils: Account[];

  beforeAll(async () => {
    const made = await createClass(h, teacher, 'Table');
    course = made.id;
    pupils = await Promise.all(['Ann', 'Bob', 'Cid', 'Dee'].map((name) => h.signUp('student', `${name} Pupil`)));
    for (const pupil of pupils) await joinClass(h, pupil, made.inviteCode);
    lectureA = await lectureWithVideo('Lenses', 60, course);
    lectureB = await lectureWithVideo('Prisms', 60, course);
    // Ann finished both, Bob half of A, Cid nothing, Dee all of B.
    const [ann, bob, , dee] = pupils as [Account, Account, Account, Account];
    for (const lectureId of [lectureA, lectureB]) {
      await report(lectureId, ann.token, { ranges: [[0, 60]], rate: 1, offline: true });
    }
    await report(lectureA, bob.token, { ranges: [[0, 20]], rate: 1 });
    await report(lectureB, dee.token, { ranges: [[0, 60]], rate: 1, offline: true });
  });

  const table = (query = '') => h.api('GET', `/api/courses/${course}/insight${query}`, { as: teacher.token });

  test('the table lists every student with one cell per lecture, paged and sorted', async () => {
    const all = await table();
    expect(all.status).toBe(200);
    expect(all.json.total).toBe(4);
    expect(all.json.lectures.map((lecture: { nameOfTopic: string }) => lecture.nameOfTopic)).toEqual([
      'Lenses',
      'Prisms',
    ]);
    expect(all.json.students.map((row: { username: string }) => row.username)).toEqual([
      'Ann Pupil',
      'Bob Pupil',
      'Cid Pupil',
      'Dee Pupil',
    ]);
    const ann = all.json.students[0];
    expect(ann.lectures).toHaveLength(2);
    expect(ann.lectures[0]).toMatchObject({ lectureId: lectureA, percent: 100, completed: true, late: false });
    expect(typeof ann.lectures[0].lastWatchedAt).toBe('string');
    expect(all.json.students[2].lectures[0]).toMatchObject({ percent: 0, completed: false, lastWatchedAt: null });
    const page = await table('?page=2&size=2&sort=percent&dir=desc');
    expect(page.json).toMatchObject({ page: 2, size: 2, total: 4 });
    expect(page.json.students.map((row: { username: string }) => row.username)).toEqual(['Bob Pupil', 'Cid Pupil']);
  });

  test('the filters: not started, in progress, done, and one lecture', async () => {
    const names = async (query: string) =>
      (await table(query)).json.students.map((row: { username: string }) => row.username);
    expect(await names('?filter=not-started')).toEqual(['Cid Pupil']);
    expect(await names('?filter=in-progress')).toEqual(['Bob Pupil', 'Dee Pupil']);
    expect(await names('?filter=done')).toEqual(['Ann Pupil']);
    expect(await names(`?filter=done&lecture=${lectureB}`)).toEqual(['Ann Pupil', 'Dee Pupil']);
    expect(await names(`?filter=not-started&lecture=${lectureA}`)).toEqual(['Cid Pupil', 'Dee Pupil']);
    expect((await table('?size=500')).status).toBe(400);
    expect((await table('?sort=password')).status).toBe(400);
  });

  test('due dates: set on update, shown on lectures, overdue filter, late, and the to-do list', async () => {
    const past = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    const set = await h.api('PATCH', `/api/lectures/${lectureA}/update`, {
      as: teacher.token,
      body: { dueAt: past },
    });
    expect(set.status).toBe(200);
    expect(set.json.dueAt).toBe(past);
    const refused = await h.api('PATCH', `/api/lectures/${lectureA}/update`, {
      as: teacher.token,
      body: { dueAt: 'tomorrow' },
    });
    expect(refused.status).toBe(400);
    const names = async (query: string) =>
      (await table(query)).json.students.map((row: { username: string }) => row.username);
    expect(await names('?filter=overdue')).toEqual(['Bob Pupil', 'Cid Pupil', 'Dee Pupil']);
    const bob = pupils[1] as Account;
    const todo = await h.api('GET', '/api/todo', { as: bob.token });
    expect(todo.status).toBe(200);
    expect(todo.json.items).toEqual([
      expect.objectContaining({ lectureId: lectureA, courseId: course, overdue: true, completed: false }),
    ]);
    // Bob finishes it now: late.
    await report(lectureA, bob.token, { ranges: [[0, 60]], rate: 1, offline: true });
    const seen = await h.api('GET', `/api/lectures/${lectureA}`, { as: bob.token });
    expect(seen.json.myCoverage).toEqual({ percent: 100, completed: true, late: true, reach: 100 });
    expect(seen.json.dueAt).toBe(past);
    expect((await h.api('GET', '/api/todo', { as: bob.token })).json.items).toEqual([]);
    const teacherSees = await h.api('GET', `/api/lectures/${lectureA}`, { as: teacher.token });
    expect(teacherSees.json.myCoverage).toBeNull();
    const cleared = await h.api('PATCH', `/api/lectures/${lectureA}/update`, {
      as: teacher.token,
      body: { dueAt: null },
    });
    expect(cleared.json.dueAt).toBeNull();
  });

  test("one student's page: the teacher, or the student themselves; not a classmate", async () => {
    const [ann, bob] = pupils as [Account, Account];
    const own = await h.api('GET', `/api/courses/${course}/insight/students/${ann.user._id}`, { as: ann.token });
    expect(own.status).toBe(200);
    expect(own.json.student).toEqual({ _id: ann.user._id, username: 'Ann Pupil' });
    expect(own.json.lectures[0].parts).toHaveLength(100);
    const classmate = await h.api('GET', `/api/courses/${course}/insight/students/${ann.user._id}`, {
      as: bob.token,
    });
    expect(classmate.status).toBe(403);
    const studentTable = await h.api('GET', `/api/courses/${course}/insight`, { as: ann.token });
    expect(studentTable.status).toBe(403);
    const outsiderTable = await h.api('GET', `/api/courses/${course}/insight`, { as: outsider.token });
    expect(outsiderTable.status).toBe(404);
  });

  test('the strip counts students per part and those who went back', async () => {
    const [ann] = pupils as [Account];
    // Ann watches the start of B again.
    await letTimePass(ann.user._id, lectureB, 30);
    await report(lectureB, ann.token, { ranges: [[0, 12]], rate: 1 });
    const strip = await h.api('GET', `/api/lectures/${lectureB}/insight/strip`, { as: teacher.token });
    expect(strip.status).toBe(200);
    expect(strip.json.students).toBe(2);
    expect(strip.json.parts).toHaveLength(100);
    expect(strip.json.parts[0]).toBe(2);
    expect(strip.json.parts[99]).toBe(2);
    expect(strip.json.replays[0]).toBe(1);
    expect(strip.json.replays[50]).toBe(0);
    expect((await h.api('GET', `/api/lectures/${lectureB}/insight/strip`, { as: ann.token })).status).toBe(403);
  });

  test("the CSV: UTF-8 with a BOM, one row per student, in the reader's language", async () => {
    const csv = await h.api('GET', `/api/courses/${course}/insight.csv`, { as: teacher.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = new Uint8Array(
      await (
        await fetch(`${h.baseUrl}/api/courses/${course}/insight.csv`, {
          headers: { authorization: `Bearer ${teacher.token}` },
        })
      ).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe(
      '"Name","Lenses %","Lenses completed","Lenses last watched","Lenses question score %",' +
        '"Prisms %","Prisms completed","Prisms last watched","Prisms question score %"',
    );
    expect(lines[1]?.startsWith('"Ann Pupil","100","yes","')).toBe(true);
    // No questions in these lectures: the score is empty.
    expect(lines[3]).toBe('"Cid Pupil","0","no","","","0","no","",""');
    const french = await h.api('GET', `/api/courses/${course}/insight.csv`, {
      as: teacher.token,
      headers: { 'accept-language': 'fr' },
    });
    expect(french.text.replace(/^\uFEFF/, '').startsWith('"Nom","Lenses %","Lenses terminé"')).toBe(true);
    expect((await h.api('GET', `/api/courses/${course}/insight.csv`, { as: pupils[0]?.token })).status).toBe(403);
  });
});

describe('privacy', () => {
  test('removal, account deletion and lecture deletion delete the rows: coverage and answers', async () => {
    const made = await createClass(h, teacher, 'Privacy');
    const [kim, lou] = await Promise.all([h.signUp('student', 'Kim Leaves'), h.signUp('student', 'Lou Deletes')]);
    await joinClass(h, kim, made.inviteCode);
    await joinClass(h, lou, made.inviteCode);
    const first = await lectureWithVideo('Kept a while', 60, made.id);
    const second = await lectureWithVideo('Deleted', 60, made.id);
    // A question in each lecture, answered by both (their answers go with their coverage).
    const questionIds: string[] = [];
    for (const lectureId of [first, second]) {
      const question = await h.api('POST', `/api/lectures/${lectureId}/questions`, {
        as: teacher.token,
        body: { kind: 'truefalse', at: 5, prompt: 'Seen it?', correct: true },
      });
      expect(question.status).toBe(201);
      questionIds.push(question.json._id);
    }
    for (const who of [kim, lou]) {
      for (const lectureId of [first, second]) {
        expect((await report(lectureId, who.token, { ranges: [[0, 10]], rate: 1 })).status).toBe(200);
      }
      for (const questionId of questionIds) {
        const answered = await h.api('POST', `/api/questions/${questionId}/answers`, {
          as: who.token,
          body: { answer: true },
        });
        expect(answered.status).toBe(200);
      }
    }
    const countFor = async (userId: string) =>
      (await h.db.select().from(watchCoverage).where(eq(watchCoverage.userId, userId))).length;
    const answersOf = async (userId: string) =>
      (await h.db.select().from(questionAnswers).where(eq(questionAnswers.userId, userId))).length;
    expect(await answersOf(kim.user._id)).toBe(2);
    const totalsOf = async (userId: string) =>
      h.db.select().from(courseCoverage).where(eq(courseCoverage.userId, userId));
    expect(await countFor(kim.user._id)).toBe(2);
    // Removed from the class: Kim's rows go.
    const removed = await h.api('DELETE', `/api/courses/${made.id}/students/${kim.user._id}`, { as: teacher.token });
    expect(removed.status).toBe(200);
    expect(await countFor(kim.user._id)).toBe(0);
    expect(await totalsOf(kim.user._id)).toEqual([]);
    expect(await answersOf(kim.user._id)).toBe(0);
    // The lecture deleted: its rows go.
    expect((await h.api('DELETE', `/api/lectures/${second}`, { as: teacher.token })).status).toBe(200);
    expect(await countFor(lou.user._id)).toBe(1);
    expect(await answersOf(lou.user._id)).toBe(1);
    // The class's totals are counted again without the deleted lecture.
    expect(await totalsOf(lou.user._id)).toEqual([expect.objectContaining({ courseId: made.id, started: 1, done: 0 })]);
    // The account deleted: the rest goes.
    const deleted = await h.api('DELETE', `/api/users/${lou.user._id}`, {
      as: lou.token,
      body: { password: lou.password },
    });
    if (deleted.status === 200 || deleted.status === 204) {
      expect(await countFor(lou.user._id)).toBe(0);
      expect(await totalsOf(lou.user._id)).toEqual([]);
      expect(await answersOf(lou.user._id)).toBe(0);
    } else throw new Error(`account delete answered ${deleted.status}: ${deleted.text}`);
    const snapshot = await h.snapshot();
    const rows = (snapshot.watch_coverage ?? []) as { user_id: string }[];
    expect(rows.filter((row) => row.user_id === kim.user._id || row.user_id === lou.user._id)).toEqual([]);
    const answerRows = (snapshot.question_answers ?? []) as { user_id: string }[];
    expect(answerRows.filter((row) => row.user_id === kim.user._id || row.user_id === lou.user._id)).toEqual([]);
  });
});

describe('STUDENT_TRACKING=off', () => {
  let off: Harness;
  afterAll(() => off?.close());

  test('only anonymous per-part totals are kept; the table answers 409 tracking_off', async () => {
    off = await startHarness({ STUDENT_TRACKING: 'off' }, { worker: false });
    const tina = await off.signUp('teacher', 'Tina Off');
    const stu = await off.signUp('student', 'Stu Off');
    const made = await createClass(off, tina, 'Anonymous');
    await joinClass(off, stu, made.inviteCode);
    const saved = h;
    h = off;
    try {
      const lectureId = await lectureWithVideo('Totals', 60, made.id, tina);
      const answer = await report(lectureId, stu.token, { ranges: [[0, 12]], rate: 1 });
      expect(answer.status).toBe(200);
      expect(await off.db.select().from(watchCoverage)).toEqual([]);
      const [totals] = await off.db.select().from(lecturePartTotals).where(eq(lecturePartTotals.lectureId, lectureId));
      expect(
        totals?.plays
          .split(',')
          .slice(0, 20)
          .every((tenths) => Number(tenths) > 0),
      ).toBe(true);
      const table = await off.api('GET', `/api/courses/${made.id}/insight`, { as: tina.token });
      expect(table.status).toBe(409);
      expect(table.json.code).toBe('tracking_off');
      const strip = await off.api('GET', `/api/lectures/${lectureId}/insight/strip`, { as: tina.token });
      expect(strip.json.students).toBe(0);
      expect(strip.json.parts[0]).toBe(1);
      expect(strip.json.parts[50]).toBe(0);
    } finally {
      h = saved;
    }
  });
});
