import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

/*
 * Issue 33's questions inside the video, in Chromium against the real server: the teacher writes them under the
 * player, the student's player pauses at each and asks, the server scores (right answers never reach the browser
 * before the last try), "no skipping ahead" stops a seek, an answer given offline arrives once the network is back,
 * and the teacher reads the results and the score in the class's table.
 */
const env = e2eEnvironment({ TEACHER_SIGNUP: 'open', LOCALES: 'en,ar', DEFAULT_LOCALE: 'en' });
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-questions-'));
const CLIP_SECONDS = 30;
let teacher: Awaited<ReturnType<typeof createAccount>>;
let student: Awaited<ReturnType<typeof createAccount>>;
let offliner: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let lectureId: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Grace Teacher', 'teacher');
  student = await createAccount(env.server, env.mail, 'Ada Answer', 'student');
  offliner = await createAccount(env.server, env.mail, 'Bo Offline', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Optics 101' });
  courseId = course._id;
  for (const pupil of [student, offliner]) {
    await pupil.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  }
  const clip = await makeClip(clips, { width: 320, height: 180, seconds: CLIP_SECONDS, name: 'optics.mp4' });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip), 'optics.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  const lecture = await teacher.api('POST', '/api/lectures', {
    courseId,
    nameOfTopic: 'Refraction',
    videoLink: uploaded.masterPlaylist,
  });
  lectureId = lecture._id;
  const deadline = Date.now() + 120_000;
  while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') {
    if (Date.now() > deadline) throw new Error('video not ready');
    await Bun.sleep(250);
  }
}, 180_000);
afterAll(() => rmSync(clips, { recursive: true, force: true }));

const video = (page: Page) =>
  page.evaluate(() => {
    const element = document.querySelector('video') as HTMLVideoElement;
    return { time: element.currentTime, paused: element.paused };
  });

async function waitFor(page: Page, check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

async function openClass(page: Page) {
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Refraction' }).waitFor();
}

test('the teacher writes questions under the player; the student is asked, scored by the server, and cannot skip', async () => {
  // The teacher adds a multiple-choice question at 0:04 (with feedback) and a true/false one at 0:08 (without),
  // and turns on "no skipping ahead".
  const teacherContext = await signedInContext(env.browser, env.server, teacher.token);
  const teacherPage = await teacherContext.newPage();
  await openClass(teacherPage);
  const panel = teacherPage.getByTestId('questions-panel');
  await panel.getByText('No questions yet.', { exact: false }).waitFor();
  await panel.getByRole('button', { name: /^Add a question at / }).click();
  let form = panel.getByRole('form', { name: 'New question' });
  await form.getByLabel('Asked at').fill('0:04');
  await form.getByLabel('Question', { exact: true }).fill('Which way does light bend entering glass?');
  await form.getByLabel('Choice 1', { exact: true }).fill('Towards the normal');
  await form.getByLabel('Choice 2', { exact: true }).fill('Away from the normal');
  await form.getByRole('button', { name: 'Add a choice' }).click();
  await form.getByLabel('Choice 3', { exact: true }).fill('It does not bend');
  // Saving with no right choice is refused in words, beside the choices, and nothing is sent.
  await form.getByRole('button', { name: 'Save question' }).click();
  await form.getByText('Mark at least one choice as right.').waitFor();
  expect((await teacher.api('GET', `/api/lectures/${lectureId}/questions`)).questions).toHaveLength(0);
  await form.getByRole('checkbox', { name: 'Right', exact: true }).first().check();
  await form.getByRole('button', { name: 'Save question' }).click();
  // The form closes once the list holds the saved question (until then its textarea holds the same words).
  await form.waitFor({ state: 'detached' });
  await panel.getByText('Which way does light bend entering glass?').waitFor();

  await panel.getByRole('button', { name: /^Add a question at / }).click();
  form = panel.getByRole('form', { name: 'New question' });
  await form.getByLabel('True or false').check();
  await form.getByLabel('Asked at').fill('0:08');
  await form.getByLabel('Question', { exact: true }).fill('Glass is denser than air.');
  await form.getByLabel('Tell students whether they were right, and let them try again').uncheck();
  await form.getByRole('button', { name: 'Save question' }).click();
  await form.waitFor({ state: 'detached' });
  await panel.getByText('Glass is denser than air.').waitFor();
  await panel.getByLabel('No skipping ahead').check();
  await teacherPage.getByText('Students can no longer skip ahead in this lecture.').waitFor();
  await screenshot(teacherPage, 'questions-teacher-panel');

  // The student: the questions arrive without their right answers.
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  const listed: unknown[] = [];
  page.on('response', async (response) => {
    if (response.url().endsWith(`/api/lectures/${lectureId}/questions`) && response.request().method() === 'GET') {
      listed.push(await response.json().catch(() => null));
    }
  });
  await openClass(page);
  await waitFor(page, async () => listed.length > 0, 'the questions');
  const first = listed[0] as { questions: { key: unknown; mine: unknown; prompt: string }[]; noSkip: boolean };
  expect(first.noSkip).toBe(true);
  expect(first.questions.map((question) => [question.key, question.mine])).toEqual([
    [null, null],
    [null, null],
  ]);
  expect(JSON.stringify(first)).not.toContain('rightAnswer":[');

  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await waitFor(page, async () => (await video(page)).time > 1, 'playback');
  // No skipping ahead: a seek to 0:20 stops at what was played (the first question is at 0:04 anyway).
  await page.evaluate(() => {
    (document.querySelector('video') as HTMLVideoElement).currentTime = 20;
  });
  await page.getByText('No skipping ahead in this lecture.').waitFor();
  expect((await video(page)).time).toBeLessThan(4.5);

  // At 0:04 the video pauses and asks.
  const overlay = page.getByTestId('question-overlay');
  await overlay.waitFor({ timeout: 20_000 });
  const paused = await video(page);
  expect(paused.paused).toBe(true);
  expect(paused.time).toBeGreaterThanOrEqual(3.9);
  expect(paused.time).toBeLessThan(5);
  // Space in the question does not play the video behind it.
  await overlay.getByRole('radio', { name: 'Away from the normal' }).focus();
  await page.keyboard.press('Space');
  expect((await video(page)).paused).toBe(true);
  await overlay.getByRole('button', { name: 'Answer' }).click();
  await overlay.getByText('Not quite. You can try 2 more times.').waitFor();
  await overlay.getByRole('button', { name: 'Try again' }).click();
  await overlay.getByRole('radio', { name: 'Towards the normal' }).check();
  await overlay.getByRole('button', { name: 'Answer' }).click();
  await overlay.getByText('Right!').waitFor();
  await screenshot(page, 'questions-student-right');
  await overlay.getByRole('button', { name: 'Continue' }).click();
  await waitFor(page, async () => !(await video(page)).paused, 'playing again');

  // The true/false question (no feedback): one answer, saved, not judged on screen.
  await overlay.waitFor({ timeout: 20_000 });
  await overlay.getByRole('radio', { name: 'False' }).check();
  await overlay.getByRole('button', { name: 'Answer' }).click();
  await overlay.getByText('Your answer is saved.').waitFor();
  await overlay.getByRole('button', { name: 'Continue' }).click();
  await waitFor(page, async () => (await video(page)).time > 9, 'playing past the second question');
  await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await context.close();

  // The server kept what it scored: right at the second try; wrong, and final, without feedback.
  const mine = await student.api('GET', `/api/lectures/${lectureId}/questions`);
  expect(mine.questions.map((question: { mine: { correct: unknown; tries: number } }) => question.mine.tries)).toEqual([
    2, 1,
  ]);
  expect(mine.questions[0].mine.correct).toBe(true);
  // Without feedback the student is not told, but the server scored it.
  expect(mine.questions[1].mine.correct).toBe(null);
  const again = await fetch(`${env.server.baseUrl}/api/questions/${mine.questions[1]._id}/answers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${student.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ answer: true }),
  });
  expect(again.status).toBe(409);

  // The teacher: per question the share right and the answers; the class's table shows the score.
  await teacherPage.reload({ waitUntil: 'networkidle' });
  const summaries = teacherPage.getByTestId('questions-panel').getByTestId('question-summary');
  await summaries.first().getByText('1 answered · 100% right').waitFor();
  await summaries.nth(1).getByText('1 answered · 0% right').waitFor();
  await teacherPage.getByTestId('questions-panel').getByRole('button', { name: 'Show answers' }).nth(1).click();
  await teacherPage.getByTestId('questions-panel').getByText('Most common wrong answers').waitFor();
  const row = teacherPage.getByTestId('insight-row').filter({ hasText: 'Ada Answer' });
  await row.getByTestId('insight-score').getByText('Questions: 1 of 2 right').waitFor();
  await screenshot(teacherPage, 'questions-teacher-results');
  await teacherContext.close();
}, 150_000);

test('on a phone, offline: the question fits in the player, and the answer arrives once the network is back', async () => {
  const context = await signedInContext(env.browser, env.server, offliner.token, { width: 375, height: 812 });
  const page = await context.newPage();
  await openClass(page);
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  // The clip is small: it is all buffered long before the question, so it plays on without a network.
  await waitFor(
    page,
    () =>
      page.evaluate(() => {
        const element = document.querySelector('video') as HTMLVideoElement;
        return element.buffered.length > 0 && element.buffered.end(element.buffered.length - 1) > 8;
      }),
    'the clip buffered',
  );
  await context.setOffline(true);
  const overlay = page.getByTestId('question-overlay');
  await overlay.waitFor({ timeout: 20_000 });
  // The player grows to the question (a 16:9 player is 211 px tall here): Answer is inside it, not cut off, and
  // the player's controls are out of sight and out of the Tab order behind it.
  const player = await page.getByTestId('video-player').boundingBox();
  const answerBox = await overlay.getByRole('button', { name: 'Answer' }).boundingBox();
  expect((answerBox?.y ?? 1e4) + (answerBox?.height ?? 0)).toBeLessThanOrEqual(
    (player?.y ?? 0) + (player?.height ?? 0),
  );
  expect(player?.height ?? 0).toBeGreaterThan(211);
  expect(await page.getByRole('slider', { name: 'Seek' }).count()).toBe(0);
  await screenshot(page, 'questions-student-375');
  await overlay.getByRole('radio', { name: 'Towards the normal' }).check();
  await overlay.getByRole('button', { name: 'Answer' }).click();
  await overlay.getByText('You are offline.', { exact: false }).waitFor();
  await overlay.getByRole('button', { name: 'Continue' }).click();
  const before = await offliner.api('GET', `/api/lectures/${lectureId}/questions`);
  expect(before.questions[0].mine).toBe(null);
  await context.setOffline(false);
  const deadline = Date.now() + 20_000;
  let answered = before;
  while (answered.questions[0].mine === null && Date.now() < deadline) {
    await Bun.sleep(250);
    answered = await offliner.api('GET', `/api/lectures/${lectureId}/questions`);
  }
  expect(answered.questions[0].mine.correct).toBe(true);
  await context.close();
}, 90_000);

test('refused answers change nothing: another class, a 20,000-character answer, a question past the end', async () => {
  const outsider = await createAccount(env.server, env.mail, 'Cy Outside', 'student');
  const other = await teacher.api('POST', '/api/courses', { courseName: 'Other class' });
  await outsider.api('POST', '/api/enrollments/join', { inviteCode: other.inviteCode });
  const { questions } = await teacher.api('GET', `/api/lectures/${lectureId}/questions`);
  const results = async () => JSON.stringify(await teacher.api('GET', `/api/lectures/${lectureId}/questions/results`));
  const before = await results();
  const post = (token: string, questionId: string, body: unknown) =>
    fetch(`${env.server.baseUrl}/api/questions/${questionId}/answers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  expect((await post(outsider.token, questions[0]._id, { answer: [0] })).status).toBe(403);
  const short = await teacher.api('POST', `/api/lectures/${lectureId}/questions`, {
    kind: 'short',
    at: 12,
    prompt: 'Why?',
    marked: true,
  });
  const long = await post(offliner.token, short._id, { answer: 'x'.repeat(20_000) });
  expect(long.status).toBe(400);
  const past = await fetch(`${env.server.baseUrl}/api/lectures/${lectureId}/questions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${teacher.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'truefalse', at: CLIP_SECONDS + 60, prompt: 'Late?', correct: true }),
  });
  expect(past.status).toBe(400);
  const after = await teacher.api('GET', `/api/lectures/${lectureId}/questions`);
  expect(after.questions.map((question: { prompt: string }) => question.prompt)).toEqual([
    'Which way does light bend entering glass?',
    'Glass is denser than air.',
    'Why?',
  ]);
  // The earlier answers are as they were; the short answer has none.
  const now = JSON.parse(await results());
  expect(JSON.stringify(now.questions.slice(0, 2))).toBe(JSON.stringify(JSON.parse(before).questions));
  expect(now.questions[2].answered).toBe(0);
  await teacher.api('DELETE', `/api/lectures/${lectureId}/questions/${short._id}`);
}, 60_000);
