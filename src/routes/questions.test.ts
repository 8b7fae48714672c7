import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { LIMITS } from '../contract/limits';
import { masterPlaylistPath } from '../contract/videos';
import { lectureQuestions, questionAnswers, videos } from '../db/schema';
import { newId } from '../lib/ids';
import { type Account, type Harness, startHarness } from '../test/harness';
import { classScenario, createClass, joinClass } from '../test/scenario';

/**
 * Questions inside the video (issue 33 part 4, docs/teaching.md): on SQLite, and on PostgreSQL with
 * TEST_DATABASE_URL (scripts/test-all.ts). A refused request is checked to change nothing: every row of every table
 * is read before and after it.
 */

/** A two-minute video. */
const DURATION = 120;

let h: Harness;
let admin: Account;
let teacher: Account;
let student: Account;
let outsider: Account;
let classmates: Account[];
let courseId: string;

/** A lecture with a ready video of `seconds` (made in the database: no transcode), through the API. */
async function lectureWithVideo(name: string, seconds = DURATION, course = courseId, owner = teacher, harness = h) {
  const videoId = newId();
  await harness.db.insert(videos).values({
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
  const made = await harness.api('POST', '/api/lectures', {
    as: owner.token,
    body: { courseId: course, nameOfTopic: name, videoLink: masterPlaylistPath(videoId) },
  });
  if (made.status !== 201) throw new Error(`setup: lecture ${made.status} ${made.text}`);
  return made.json._id as string;
}

const choice = (at: number, correct: number[], feedback = true) => ({
  kind: 'choice',
  at,
  prompt: 'Which of these are prime?',
  choices: ['2', '4', '5', '9'],
  correct,
  feedback,
});
const trueFalse = (at: number, correct: boolean, feedback = true) => ({
  kind: 'truefalse',
  at,
  prompt: 'Light bends towards the normal entering glass.',
  correct,
  feedback,
});
const short = (at: number, marked = true) => ({ kind: 'short', at, prompt: 'Why is the sky blue?', marked });

async function addQuestion(lectureId: string, body: unknown, as = teacher, harness = h) {
  const made = await harness.api('POST', `/api/lectures/${lectureId}/questions`, { as: as.token, body });
  if (made.status !== 201) throw new Error(`setup: question ${made.status} ${made.text}`);
  return made.json;
}
const answer = (questionId: string, who: Account, body: unknown, harness = h) =>
  harness.api('POST', `/api/questions/${questionId}/answers`, { as: who.token, body });
const listAs = (lectureId: string, who: Account) =>
  h.api('GET', `/api/lectures/${lectureId}/questions`, { as: who.token });
const resultsOf = async (lectureId: string) => {
  const results = await h.api('GET', `/api/lectures/${lectureId}/questions/results`, { as: teacher.token });
  expect(results.status).toBe(200);
  return results.json.questions as any[];
};
const answerRow = async (questionId: string, who: Account) =>
  (
    await h.db
      .select()
      .from(questionAnswers)
      .where(and(eq(questionAnswers.questionId, questionId), eq(questionAnswers.userId, who.user._id)))
  )[0];

/** Sends a request that must be refused with `status` (and `code`), and checks that no row of any table changed. */
async function refused(
  send: () => Promise<{ status: number; json: any; text: string }>,
  status: number,
  code?: string,
  harness = h,
) {
  const before = await harness.snapshot();
  const result = await send();
  expect({ status: result.status, code: code ? result.json?.code : undefined }).toEqual({ status, code });
  expect(await harness.snapshot()).toEqual(before);
  return result.json;
}

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  // The first account on a fresh install is the administrator.
  admin = await h.signUp('teacher', 'Ada Admin');
  const cast = await classScenario(h, {
    names: { teacher: 'Tess Teacher', student: 'Sam Student', outsider: 'Olga Outsider' },
    courseName: 'Optics',
    classmates: ['Ann Pupil', 'Bob Pupil', 'Cid Pupil'],
  });
  ({ teacher, student, outsider, classmates } = cast);
  courseId = cast.course?.id as string;
  expect(admin.user.isAdmin).toBe(true);
});
afterAll(() => h?.close());

describe('the teacher sets questions', () => {
  test('each kind is added, and the teacher sees the right answers by time', async () => {
    const lectureId = await lectureWithVideo('Kinds');
    const several = await addQuestion(lectureId, choice(40, [2, 0]));
    expect(several).toMatchObject({ kind: 'choice', at: 40, multiple: true, key: [0, 2], version: 0, mine: null });
    expect(several.choices).toEqual(['2', '4', '5', '9']);
    const one = await addQuestion(lectureId, choice(50, [1]));
    expect(one).toMatchObject({ multiple: false, key: [1] });
    const tf = await addQuestion(lectureId, trueFalse(10, false, false));
    expect(tf).toMatchObject({ kind: 'truefalse', key: false, feedback: false, choices: [], multiple: false });
    const text = await addQuestion(lectureId, short(30));
    expect(text).toMatchObject({ kind: 'short', key: null, marked: true, feedback: true });
    // The moment may be the video's last second.
    await addQuestion(lectureId, short(DURATION, false));
    const list = await listAs(lectureId, teacher);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('private, no-cache');
    expect(list.json.noSkip).toBe(false);
    expect(list.json.questions.map((question: { at: number }) => question.at)).toEqual([10, 30, 40, 50, DURATION]);
    expect(list.json.questions[2].key).toEqual([0, 2]);
  });

  test('a question past the video’s end, without a video, or by a student is refused, and nothing is stored', async () => {
    const lectureId = await lectureWithVideo('Refused questions');
    const past = await refused(
      () => h.api('POST', `/api/lectures/${lectureId}/questions`, { as: teacher.token, body: short(DURATION + 1) }),
      400,
      'invalid_input',
    );
    expect(past.fields.at).toBe("The question's moment is past the end of the video.");
    const noVideo = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'No video yet', videoLink: null },
    });
    await refused(
      () => h.api('POST', `/api/lectures/${noVideo.json._id}/questions`, { as: teacher.token, body: short(1) }),
      409,
      'no_video',
    );
    await refused(
      () => h.api('POST', `/api/lectures/${lectureId}/questions`, { as: student.token, body: short(1) }),
      403,
      'forbidden',
    );
    await refused(
      () => h.api('POST', `/api/lectures/${lectureId}/questions`, { as: outsider.token, body: short(1) }),
      404,
      'lecture_not_found',
    );
    for (const body of [
      { ...choice(5, [4]) },
      { ...choice(5, []) },
      { ...choice(5, [0]), choices: ['only one'] },
      { ...trueFalse(5, true), correct: 'yes' },
      { ...short(5), kind: 'essay' },
      { ...short(-1) },
      { ...short(5), prompt: '' },
      { ...short(5), extra: true },
    ]) {
      await refused(
        () => h.api('POST', `/api/lectures/${lectureId}/questions`, { as: teacher.token, body }),
        400,
        'invalid_input',
      );
    }
    expect(await h.db.select().from(lectureQuestions).where(eq(lectureQuestions.lectureId, lectureId))).toEqual([]);
  });

  test(`a lecture takes at most ${LIMITS.questionsPerLecture} questions`, async () => {
    const lectureId = await lectureWithVideo('Full');
    for (let at = 0; at < LIMITS.questionsPerLecture; at++) await addQuestion(lectureId, short(at, false));
    await refused(
      () => h.api('POST', `/api/lectures/${lectureId}/questions`, { as: teacher.token, body: short(1) }),
      409,
      'too_many_questions',
    );
  });
});

describe('a student answers', () => {
  let lectureId: string;
  let several: { _id: string };
  let noFeedback: { _id: string };

  beforeAll(async () => {
    lectureId = await lectureWithVideo('Answers');
    several = await addQuestion(lectureId, choice(10, [0, 2]));
    noFeedback = await addQuestion(lectureId, trueFalse(20, true, false));
  });

  test("a student's list never holds a right answer before their final answer", async () => {
    const list = await listAs(lectureId, student);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('private, no-cache');
    for (const question of list.json.questions) {
      expect(question).toMatchObject({ key: null, mine: null, version: 0 });
    }
    expect(list.text).not.toContain('rightAnswer');
    expect(list.text).not.toContain('"correct"');
  });

  test('a wrong answer then a right one, with feedback: two tries, right, and the right answer only then', async () => {
    const wrong = await answer(several._id, student, { answer: [0] });
    expect(wrong.status).toBe(200);
    expect(wrong.json).toMatchObject({ answer: [0], correct: false, tries: 1, triesLeft: 2, rightAnswer: null });
    const between = await listAs(lectureId, student);
    const asked = between.json.questions.find((question: { _id: string }) => question._id === several._id);
    expect(asked).toMatchObject({ key: null, mine: { correct: false, rightAnswer: null, triesLeft: 2 } });
    // Picks in any order count as the same set.
    const right = await answer(several._id, student, { answer: [2, 0] });
    expect(right.status).toBe(200);
    expect(right.json).toMatchObject({ answer: [0, 2], correct: true, tries: 2, triesLeft: 0, rightAnswer: [0, 2] });
    expect(right.json.changed).toBe(false);
    const row = await answerRow(several._id, student);
    expect(row).toMatchObject({ correct: true, tries: 2, answer: '[0,2]', offline: false });
    // A right answer is final.
    await refused(() => answer(several._id, student, { answer: [1] }), 409, 'question_answered');
    const after = await listAs(lectureId, student);
    const mine = after.json.questions.find((question: { _id: string }) => question._id === several._id);
    expect(mine).toMatchObject({ key: null, mine: { correct: true, tries: 2, rightAnswer: [0, 2] } });
  });

  test(`wrong ${LIMITS.questionTriesMax} times: the last try is final and shows the right answer`, async () => {
    const [ann] = classmates as [Account];
    for (let tries = 1; tries < LIMITS.questionTriesMax; tries++) {
      const again = await answer(several._id, ann, { answer: [1] });
      expect(again.json).toMatchObject({ correct: false, tries, rightAnswer: null });
    }
    const last = await answer(several._id, ann, { answer: [3], offline: true });
    expect(last.json).toMatchObject({
      correct: false,
      tries: LIMITS.questionTriesMax,
      triesLeft: 0,
      rightAnswer: [0, 2],
    });
    expect(await answerRow(several._id, ann)).toMatchObject({ offline: true, answer: '[3]' });
    await refused(() => answer(several._id, ann, { answer: [0, 2] }), 409, 'question_answered');
  });

  test('without feedback: one answer, its score kept but not told', async () => {
    const first = await answer(noFeedback._id, student, { answer: false });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ answer: false, correct: null, tries: 1, triesLeft: 0, rightAnswer: null });
    expect(await answerRow(noFeedback._id, student)).toMatchObject({ correct: false, tries: 1 });
    await refused(() => answer(noFeedback._id, student, { answer: true }), 409, 'question_answered');
    expect(await answerRow(noFeedback._id, student)).toMatchObject({ answer: 'false', correct: false, tries: 1 });
    const list = await listAs(lectureId, student);
    const mine = list.json.questions.find((question: { _id: string }) => question._id === noFeedback._id);
    expect(mine).toMatchObject({ key: null, mine: { answer: false, correct: null, rightAnswer: null } });
  });

  test('a student of another class gets 403, the teacher and an administrator too, and nothing is stored', async () => {
    const other = await createClass(h, admin, 'Elsewhere');
    await joinClass(h, outsider, other.inviteCode);
    const json = await refused(() => answer(several._id, outsider, { answer: [0, 2] }), 403, 'forbidden');
    expect(json.message).toBe('Only the students of this class can answer its questions.');
    await refused(() => answer(several._id, teacher, { answer: [0, 2] }), 403, 'forbidden');
    await refused(() => answer(several._id, admin, { answer: [0, 2] }), 403, 'forbidden');
    await refused(
      () => h.api('POST', `/api/questions/${several._id}/answers`, { body: { answer: [0, 2] } }),
      401,
      'unauthorized',
    );
    await refused(() => answer('NoSuchQuestion12', student, { answer: true }), 404, 'question_not_found');
    expect(await answerRow(several._id, outsider)).toBeUndefined();
  });

  test('a 20,000-character short answer, an answer of the wrong kind, or a huge body: 400, nothing stored', async () => {
    const text = await addQuestion(lectureId, short(30));
    const [, bob] = classmates as [Account, Account];
    const long = await refused(() => answer(text._id, bob, { answer: 'x'.repeat(20_000) }), 400, 'invalid_input');
    expect(long.fields.answer).toBe('An answer can be at most 2,000 characters.');
    const cases: [string, unknown][] = [
      [text._id, [0]],
      [text._id, true],
      [text._id, '   '],
      [text._id, 'bell\u0007'],
      [several._id, true],
      [several._id, 'two'],
      [several._id, [4]],
      [several._id, [0, 0]],
      [several._id, []],
      [noFeedback._id, 'true'],
      [noFeedback._id, [1]],
    ];
    for (const [questionId, value] of cases) {
      const json = await refused(() => answer(questionId, bob, { answer: value }), 400, 'invalid_input');
      expect(typeof json.fields.answer).toBe('string');
    }
    const wrongKind = await refused(() => answer(several._id, bob, { answer: true }), 400, 'invalid_input');
    expect(wrongKind.fields.answer).toBe('This answer does not fit the question. Please choose again.');
    await refused(
      () =>
        h.api('POST', `/api/questions/${text._id}/answers`, {
          as: bob.token,
          body: JSON.stringify({ answer: 'x', pad: 'y'.repeat(100_000) }),
          headers: { 'content-type': 'application/json' },
        }),
      400,
      'invalid_input',
    );
    // The longest allowed answer is kept.
    const longest = await answer(text._id, bob, { answer: 'y'.repeat(LIMITS.shortAnswerMax) });
    expect(longest.status).toBe(200);
  });
});

describe('marking, editing and results', () => {
  test('the teacher marks a short answer; only a marked short question takes a mark', async () => {
    const lectureId = await lectureWithVideo('Marking');
    const text = await addQuestion(lectureId, short(30));
    const unmarked = await addQuestion(lectureId, short(40, false));
    const tf = await addQuestion(lectureId, trueFalse(50, true));
    const given = await answer(text._id, student, { answer: '  Rayleigh scattering  ' });
    expect(given.json).toMatchObject({ answer: 'Rayleigh scattering', correct: null, triesLeft: 0, rightAnswer: null });
    await answer(unmarked._id, student, { answer: 'Because.' });
    await answer(tf._id, student, { answer: true });
    const before = (await resultsOf(lectureId)).find((row) => row.questionId === text._id);
    expect(before).toMatchObject({ answered: 1, scored: 0, right: 0, toMark: 1 });
    const mark = (questionId: string, who: Account, userId = student.user._id, correct = true) =>
      h.api('PATCH', `/api/questions/${questionId}/answers/${userId}`, { as: who.token, body: { correct } });
    await refused(() => mark(text._id, student), 403, 'forbidden');
    await refused(() => mark(text._id, outsider), 404, 'question_not_found');
    await refused(() => mark(unmarked._id, teacher), 409, 'not_markable');
    await refused(() => mark(tf._id, teacher), 409, 'not_markable');
    await refused(() => mark(text._id, teacher, classmates[2]?.user._id), 404, 'answer_not_found');
    const marked = await mark(text._id, teacher);
    expect(marked.status).toBe(200);
    expect(marked.json).toMatchObject({ userId: student.user._id, username: 'Sam Student', correct: true, tries: 1 });
    const after = (await resultsOf(lectureId)).find((row) => row.questionId === text._id);
    expect(after).toMatchObject({ answered: 1, scored: 1, right: 1, toMark: 0 });
    const list = await listAs(lectureId, student);
    const mine = list.json.questions.find((question: { _id: string }) => question._id === text._id);
    expect(mine.mine).toMatchObject({ correct: true, rightAnswer: null });
  });

  test('an edit keeps the answers: without re-scoring they read as changed, with it they are scored again', async () => {
    const lectureId = await lectureWithVideo('Editing');
    const question = await addQuestion(lectureId, trueFalse(30, true));
    const [ann, bob] = classmates as [Account, Account];
    expect((await answer(question._id, ann, { answer: true })).json.correct).toBe(true);
    expect((await answer(question._id, bob, { answer: false })).json.correct).toBe(false);
    const edit = (body: unknown) =>
      h.api('PATCH', `/api/lectures/${lectureId}/questions/${question._id}`, { as: teacher.token, body });
    // The prompt alone: no new version.
    const reworded = await edit({ question: { ...trueFalse(30, true), prompt: 'Reworded.' } });
    expect(reworded.json).toMatchObject({ prompt: 'Reworded.', version: 0 });
    const flipped = await edit({ question: trueFalse(30, false) });
    expect(flipped.status).toBe(200);
    expect(flipped.json).toMatchObject({ key: false, version: 1 });
    expect(await answerRow(question._id, ann)).toMatchObject({ correct: true, version: 0 });
    const kept = await resultsOf(lectureId);
    expect(kept[0].answers).toEqual([
      expect.objectContaining({ username: 'Ann Pupil', correct: true, changed: true }),
      expect.objectContaining({ username: 'Bob Pupil', correct: false, changed: true }),
    ]);
    const annSees = (await listAs(lectureId, ann)).json.questions[0];
    expect(annSees).toMatchObject({ key: null, version: 0, mine: { correct: true, changed: true } });
    const rescored = await edit({ question: trueFalse(30, false), rescore: true });
    expect(rescored.json.version).toBe(1);
    expect(await answerRow(question._id, ann)).toMatchObject({ correct: false, version: 1 });
    expect(await answerRow(question._id, bob)).toMatchObject({ correct: true, version: 1 });
    expect((await resultsOf(lectureId))[0]).toMatchObject({ right: 1, scored: 2 });
    expect((await listAs(lectureId, bob)).json.questions[0].mine).toMatchObject({ correct: true, changed: false });
    // Another kind: the answers no longer fit; re-scored, they are left unscored.
    const retyped = await edit({ question: choice(30, [0]), rescore: true });
    expect(retyped.json).toMatchObject({ kind: 'choice', version: 2 });
    expect(await answerRow(question._id, ann)).toMatchObject({ correct: null, version: 2, answer: 'true' });
    // Refused edits change nothing.
    await refused(() => edit({ question: trueFalse(DURATION + 5, true) }), 400, 'invalid_input');
    await refused(
      () =>
        h.api('PATCH', `/api/lectures/${lectureId}/questions/${question._id}`, {
          as: student.token,
          body: { question: trueFalse(30, true) },
        }),
      403,
      'forbidden',
    );
    const otherLecture = await lectureWithVideo('Other lecture');
    await refused(
      () =>
        h.api('PATCH', `/api/lectures/${otherLecture}/questions/${question._id}`, {
          as: teacher.token,
          body: { question: trueFalse(30, true) },
        }),
      404,
      'question_not_found',
    );
  });

  test('results: the share right and the most common wrong answers, by student', async () => {
    const lectureId = await lectureWithVideo('Results');
    const question = await addQuestion(lectureId, { ...choice(30, [1], false) });
    const [ann, bob, cid] = classmates as [Account, Account, Account];
    await answer(question._id, ann, { answer: [0] });
    await answer(question._id, bob, { answer: [0] });
    await answer(question._id, cid, { answer: [2] });
    await answer(question._id, student, { answer: [1] });
    const [row] = await resultsOf(lectureId);
    expect(row).toMatchObject({ questionId: question._id, answered: 4, scored: 4, right: 1, toMark: 0 });
    expect(row.commonWrong).toEqual([
      { answer: [0], count: 2 },
      { answer: [2], count: 1 },
    ]);
    expect(row.answers.map((one: { username: string }) => one.username)).toEqual([
      'Ann Pupil',
      'Bob Pupil',
      'Cid Pupil',
      'Sam Student',
    ]);
    expect(typeof row.answers[0].answeredAt).toBe('string');
    await refused(
      () => h.api('GET', `/api/lectures/${lectureId}/questions/results`, { as: student.token }),
      403,
      'forbidden',
    );
  });

  test('a deleted question takes its answers with it', async () => {
    const lectureId = await lectureWithVideo('Deleting');
    const question = await addQuestion(lectureId, trueFalse(30, true));
    await answer(question._id, student, { answer: true });
    await refused(
      () => h.api('DELETE', `/api/lectures/${lectureId}/questions/${question._id}`, { as: student.token }),
      403,
      'forbidden',
    );
    const deleted = await h.api('DELETE', `/api/lectures/${lectureId}/questions/${question._id}`, {
      as: teacher.token,
    });
    expect(deleted.status).toBe(204);
    expect(await answerRow(question._id, student)).toBeUndefined();
    expect((await listAs(lectureId, student)).json.questions).toEqual([]);
  });
});

describe('the score, no skipping ahead, and privacy', () => {
  test("the teacher's table, the student page and the CSV carry the question score", async () => {
    const made = await createClass(h, teacher, 'Scored');
    const [kim, lee] = await Promise.all([h.signUp('student', 'Kim Scored'), h.signUp('student', 'Lee Scored')]);
    await joinClass(h, kim, made.inviteCode);
    await joinClass(h, lee, made.inviteCode);
    const quizzed = await lectureWithVideo('Quizzed', DURATION, made.id);
    const plain = await lectureWithVideo('Plain', DURATION, made.id);
    const first = await addQuestion(quizzed, trueFalse(10, true));
    const second = await addQuestion(quizzed, choice(20, [0], false));
    // An unmarked short answer is never counted.
    const free = await addQuestion(quizzed, short(30, false));
    await answer(first._id, kim, { answer: true });
    await answer(second._id, kim, { answer: [1] });
    await answer(free._id, kim, { answer: 'Anything.' });
    const table = await h.api('GET', `/api/courses/${made.id}/insight`, { as: teacher.token });
    expect(table.status).toBe(200);
    const cells = (name: string) =>
      table.json.students.find((row: { username: string }) => row.username === name).lectures;
    expect(cells('Kim Scored')).toEqual([
      expect.objectContaining({ lectureId: quizzed, score: { right: 1, total: 2, percent: 50 } }),
      expect.objectContaining({ lectureId: plain, score: null }),
    ]);
    expect(cells('Lee Scored')[0].score).toEqual({ right: 0, total: 2, percent: 0 });
    const page = await h.api('GET', `/api/courses/${made.id}/insight/students/${kim.user._id}`, { as: kim.token });
    expect(page.json.lectures[0].score).toEqual({ right: 1, total: 2, percent: 50 });
    const csv = await h.api('GET', `/api/courses/${made.id}/insight.csv`, { as: teacher.token });
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('"Quizzed question score %"');
    expect(lines[1]?.startsWith('"Kim Scored","0","no","","50","0","no","",""')).toBe(true);
    expect(lines[2]).toBe('"Lee Scored","0","no","","0","0","no","",""');
  });

  test('"no skipping ahead" is set on the lecture; reach is the parts played in a row from the start', async () => {
    const lectureId = await lectureWithVideo('No skipping');
    const set = await h.api('PATCH', `/api/lectures/${lectureId}/update`, {
      as: teacher.token,
      body: { noSkip: true },
    });
    expect(set.status).toBe(200);
    expect(set.json.noSkip).toBe(true);
    expect((await listAs(lectureId, student)).json.noSkip).toBe(true);
    await refused(
      () => h.api('PATCH', `/api/lectures/${lectureId}/update`, { as: teacher.token, body: { noSkip: 'yes' } }),
      400,
      'invalid_input',
    );
    // 12 s of a 120 s video: the first 10 parts of 1.2 s.
    const report = await h.api('POST', `/api/lectures/${lectureId}/coverage`, {
      as: student.token,
      body: { ranges: [[0, 12]], rate: 1 },
    });
    expect(report.status).toBe(200);
    const seen = await h.api('GET', `/api/lectures/${lectureId}`, { as: student.token });
    expect(seen.json.myCoverage).toEqual({ percent: 10, completed: false, late: false, reach: 10 });
  });

  test("leaving the class deletes the student's answers there, and only there", async () => {
    const made = await createClass(h, teacher, 'Leaving');
    const mo = await h.signUp('student', 'Mo Leaves');
    await joinClass(h, mo, made.inviteCode);
    const elsewhere = await createClass(h, teacher, 'Staying');
    await joinClass(h, mo, elsewhere.inviteCode);
    const left = await lectureWithVideo('Left behind', DURATION, made.id);
    const kept = await lectureWithVideo('Kept', DURATION, elsewhere.id);
    const leftQuestion = await addQuestion(left, trueFalse(10, true));
    const keptQuestion = await addQuestion(kept, trueFalse(10, true));
    await answer(leftQuestion._id, mo, { answer: true });
    await answer(keptQuestion._id, mo, { answer: false });
    const removed = await h.api('DELETE', `/api/courses/${made.id}/students/${mo.user._id}`, { as: teacher.token });
    expect(removed.status).toBe(200);
    expect(await answerRow(leftQuestion._id, mo)).toBeUndefined();
    expect(await answerRow(keptQuestion._id, mo)).toMatchObject({ correct: false });
  });
});

describe('STUDENT_TRACKING=off', () => {
  let off: Harness;
  afterAll(() => off?.close());

  test('answers are scored and told, and nothing is kept per student', async () => {
    off = await startHarness({ STUDENT_TRACKING: 'off' }, { worker: false });
    const tina = await off.signUp('teacher', 'Tina Off');
    const stu = await off.signUp('student', 'Stu Off');
    const made = await createClass(off, tina, 'Anonymous');
    await joinClass(off, stu, made.inviteCode);
    const lectureId = await lectureWithVideo('Untracked', DURATION, made.id, tina, off);
    const question = await addQuestion(lectureId, trueFalse(10, true), tina, off);
    const wrong = await answer(question._id, stu, { answer: false }, off);
    expect(wrong.status).toBe(200);
    expect(wrong.json).toMatchObject({ correct: false, tries: 1, triesLeft: 2, rightAnswer: null });
    expect(await off.db.select().from(questionAnswers)).toEqual([]);
    const list = await off.api('GET', `/api/lectures/${lectureId}/questions`, { as: stu.token });
    expect(list.json.questions[0]).toMatchObject({ key: null, mine: null });
    const results = await off.api('GET', `/api/lectures/${lectureId}/questions/results`, { as: tina.token });
    expect(results.status).toBe(409);
    expect(results.json.code).toBe('tracking_off');
  });
});
