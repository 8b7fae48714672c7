import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

/*
 * Issue 33 in a real browser against the real server: the player reports only what really played (at any speed,
 * never what a seek skipped), the teacher's own viewing is not counted, the teacher's table, strip, CSV and the
 * "Watch by" date.
 */
const env = e2eEnvironment({ TEACHER_SIGNUP: 'open', LOCALES: 'en,ar', DEFAULT_LOCALE: 'en' });
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-teach-'));
const CLIP_SECONDS = 40;
let teacher: Awaited<ReturnType<typeof createAccount>>;
const students: Record<'half' | 'seeker' | 'fast', Awaited<ReturnType<typeof createAccount>>> = {} as never;
let courseId: string;
let lectureId: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Grace Teacher', 'teacher');
  students.half = await createAccount(env.server, env.mail, 'Ada Half', 'student');
  students.seeker = await createAccount(env.server, env.mail, 'Bo Seeker', 'student');
  students.fast = await createAccount(env.server, env.mail, 'Cy Fast', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Waves 201' });
  courseId = course._id;
  for (const student of Object.values(students)) {
    await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  }
  const clip = await makeClip(clips, { width: 320, height: 180, seconds: CLIP_SECONDS, name: 'waves.mp4' });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip), 'waves.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  const lecture = await teacher.api('POST', '/api/lectures', {
    courseId,
    nameOfTopic: 'Standing waves',
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
    return { time: element.currentTime, paused: element.paused, ended: element.ended, duration: element.duration };
  });

async function waitFor(page: Page, check: () => Promise<boolean>, what: string, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(50);
  }
}

/** Every coverage report the page sends (fetch or beacon), with the server's answer. */
function watchReports(page: Page) {
  const reports: { status: number; body: { ranges: [number, number][]; rate: number }; answer: unknown }[] = [];
  page.on('response', async (response) => {
    if (!response.url().endsWith('/coverage') || response.request().method() !== 'POST') return;
    const text = await response.text().catch(() => '');
    reports.push({
      status: response.status(),
      body: JSON.parse(response.request().postData() ?? '{}'),
      answer: text ? JSON.parse(text) : null,
    });
  });
  return reports;
}

async function openClass(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Standing waves' }).waitFor();
  return page;
}

const play = (page: Page) => page.getByRole('button', { name: 'Play', exact: true }).first().click();

/** A student's coverage of the lecture, as the teacher's API reads it. */
async function coverageOf(studentId: string) {
  const answer = await teacher.api('GET', `/api/courses/${courseId}/insight/students/${studentId}`);
  return answer.lectures.find((lecture: { lectureId: string }) => lecture.lectureId === lectureId) as {
    percent: number;
    parts: number[];
    completed: boolean;
  };
}

test('a student who plays half the lecture at normal speed: the teacher sees 50% (±5)', async () => {
  const context = await signedInContext(env.browser, env.server, students.half.token);
  const page = await openClass(context);
  const reports = watchReports(page);
  await play(page);
  await waitFor(page, async () => (await video(page)).time >= CLIP_SECONDS / 2, 'half the lecture');
  await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await waitFor(page, async () => reports.length > 0 && reports.every((r) => r.status !== 0), 'a report');
  await page.waitForTimeout(500);
  expect(reports.every((report) => report.status === 200)).toBe(true);
  expect(reports.every((report) => report.body.rate === 1)).toBe(true);
  const mine = await coverageOf(students.half.user._id);
  expect(mine.percent).toBeGreaterThanOrEqual(45);
  expect(mine.percent).toBeLessThanOrEqual(55);
  // The class page says what the teacher can see, and shows the student the same bars.
  await page.getByText('Your teacher can see how much of each lecture you watched, and your answers.').waitFor();
  await page.getByRole('button', { name: 'See what you watched' }).click();
  const bar = page.getByRole('dialog').getByTestId('parts-bar');
  await bar.waitFor();
  expect(Number(await bar.getAttribute('data-played'))).toBe(mine.percent);
  await page.keyboard.press('Escape');
  await context.close();

  const teacherContext = await signedInContext(env.browser, env.server, teacher.token);
  const teacherPage = await openClass(teacherContext);
  const row = teacherPage.getByTestId('insight-row').filter({ hasText: 'Ada Half' });
  const cell = row.getByTestId('insight-cell');
  await cell.waitFor();
  const shown = Number(await cell.getAttribute('data-percent'));
  expect(shown).toBe(mine.percent);
  // The name opens the student's lectures, each as a bar of 100 parts.
  await row.getByRole('button', { name: 'Ada Half' }).click();
  await teacherPage.getByRole('dialog', { name: 'What Ada Half watched' }).getByTestId('parts-bar').waitFor();
  await teacherContext.close();
}, 90_000);

test('a student who seeks straight to the end has nothing counted beyond what was played', async () => {
  const context = await signedInContext(env.browser, env.server, students.seeker.token);
  const page = await openClass(context);
  const reports = watchReports(page);
  await play(page);
  await waitFor(page, async () => (await video(page)).time > 0.5, 'playback to start');
  await page.evaluate(() => {
    const element = document.querySelector('video') as HTMLVideoElement;
    element.currentTime = element.duration - 2;
  });
  await waitFor(page, async () => (await video(page)).ended, 'the end');
  await waitFor(page, async () => reports.length > 0, 'a report');
  await page.waitForTimeout(500);
  await context.close();
  const mine = await coverageOf(students.seeker.user._id);
  expect(mine.percent).toBeLessThanOrEqual(12);
  expect(mine.completed).toBe(false);
  // Nothing between the first seconds and the last two was counted.
  expect(mine.parts.slice(10, 90).every((count) => count === 0)).toBe(true);
  expect(mine.parts.slice(96).some((count) => count > 0)).toBe(true);
}, 60_000);

test('at 2× speed what was played counts in full, at the rate it was played', async () => {
  const context = await signedInContext(env.browser, env.server, students.fast.token);
  const page = await openClass(context);
  const reports = watchReports(page);
  await page.getByLabel('Playback speed').selectOption('2');
  await play(page);
  const started = Date.now();
  await waitFor(page, async () => (await video(page)).time >= CLIP_SECONDS / 2, 'half the lecture');
  // It took about half the wall time.
  expect(Date.now() - started).toBeLessThan(16_000);
  await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await waitFor(page, async () => reports.length > 0, 'a report');
  await page.waitForTimeout(500);
  await context.close();
  expect(reports.some((report) => report.body.rate === 2)).toBe(true);
  const mine = await coverageOf(students.fast.user._id);
  expect(mine.percent).toBeGreaterThanOrEqual(45);
  expect(mine.percent).toBeLessThanOrEqual(55);
}, 60_000);

test('a page going out of sight sends the last report by beacon, with the cookie alone, and the server takes it', async () => {
  const leaver = await createAccount(env.server, env.mail, 'Di Leaver', 'student');
  const { inviteCode } = await teacher.api('GET', `/api/courses/${courseId}`);
  await leaver.api('POST', '/api/enrollments/join', { inviteCode });
  const context = await signedInContext(env.browser, env.server, leaver.token);
  const page = await openClass(context);
  await page.evaluate(() => {
    const sent: string[] = [];
    (window as unknown as { beacons: string[] }).beacons = sent;
    const send = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      const queued = send(url, data);
      if (queued) sent.push(String(url));
      return queued;
    };
  });
  await play(page);
  // Less than the 15 s of the first periodic report: only the page going out of sight sends it.
  await waitFor(page, async () => (await video(page)).time >= 6, 'six seconds');
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  expect(await page.evaluate(() => (window as unknown as { beacons: string[] }).beacons)).toEqual([
    `/api/lectures/${lectureId}/coverage`,
  ]);
  // The beacon carries the cookie and no bearer header: the server took it all the same.
  const deadline = Date.now() + 10_000;
  let percent = 0;
  while (percent < 12 && Date.now() < deadline) {
    const answer = await teacher.api('GET', `/api/courses/${courseId}/insight/students/${leaver.user._id}`);
    percent = answer.lectures[0].percent;
    await Bun.sleep(200);
  }
  expect(percent).toBeGreaterThanOrEqual(12);
  await context.close();
  await teacher.api('DELETE', `/api/courses/${courseId}/students/${leaver.user._id}`);
}, 60_000);

test("the teacher's own viewing is not counted; the strip shows where the class played", async () => {
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await openClass(context);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/coverage')) sent.push(request.url());
  });
  const strip = page.getByTestId('class-strip');
  await play(page);
  await waitFor(page, async () => (await video(page)).time > 3, 'three seconds');
  await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await strip.waitFor();
  expect(await strip.getAttribute('aria-label')).toContain('3 students');
  await page.waitForTimeout(1000);
  await page.close();
  expect(sent).toEqual([]);
  // The server would not count it either.
  const answer = await fetch(`${env.server.baseUrl}/api/lectures/${lectureId}/coverage`, {
    method: 'POST',
    headers: { authorization: `Bearer ${teacher.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ranges: [[0, 5]], rate: 1 }),
  });
  expect(answer.status).toBe(204);
  const table = await teacher.api('GET', `/api/courses/${courseId}/insight`);
  expect(table.students.map((student: { username: string }) => student.username).sort()).toEqual([
    'Ada Half',
    'Bo Seeker',
    'Cy Fast',
  ]);
  await context.close();
}, 60_000);

test('the "Watch by" date shows to students and in their to-do list; the CSV has a row per student', async () => {
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await openClass(context);
  await page.getByRole('button', { name: 'Actions for Standing waves' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Topic' });
  await dialog.getByTestId('watch-by').fill('2030-11-30T23:59');
  const expected = await page.evaluate(() => new Date('2030-11-30T23:59').toISOString());
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Topic saved').waitFor();
  const lecture = await teacher.api('GET', `/api/lectures/${lectureId}`);
  expect(lecture.dueAt).toBe(expected);
  await page.getByTestId('due-line').getByText('Due Nov 30, 2030').waitFor();
  await context.close();

  const studentContext = await signedInContext(env.browser, env.server, students.seeker.token);
  const studentPage = await openClass(studentContext);
  await studentPage.getByTestId('due-line').getByText('Due Nov 30, 2030').first().waitFor();
  await studentPage.goto(`${env.server.baseUrl}/classroom`);
  const todo = studentPage.getByTestId('todo');
  await todo.getByText('Standing waves').waitFor();
  await todo.getByText('Due Nov 30, 2030').waitFor();
  await studentContext.close();

  const csv = await fetch(`${env.server.baseUrl}/api/courses/${courseId}/insight.csv`, {
    headers: { authorization: `Bearer ${teacher.token}` },
  });
  expect(csv.headers.get('content-type')).toContain('text/csv');
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.arrayBuffer());
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).trim().split(/\r?\n/);
  expect(lines).toHaveLength(4);
  expect(lines[0]).toContain('Standing waves %');
  // Every cell is quoted: name, then per lecture its percent, completed, last watched, question score.
  const ada = (lines.find((line) => line.includes('Ada Half')) ?? '')
    .split(',')
    .map((cell) => cell.replace(/^"|"$/g, ''));
  expect(ada[0]).toBe('Ada Half');
  expect(ada[2]).toBe('no');
  const percent = Number(ada[1]);
  expect(percent).toBeGreaterThanOrEqual(45);
  expect(percent).toBeLessThanOrEqual(55);
}, 60_000);

test('the teacher table and the class page at 375 and 1280 px, in English and Arabic', async () => {
  for (const locale of ['en', 'ar']) {
    // The account's own language choice (kept on the account, and as the cookie) is what the pages follow.
    await teacher.api('PATCH', `/api/users/${teacher.user._id}`, { locale });
    await students.half.api('PATCH', `/api/users/${students.half.user._id}`, { locale });
    for (const width of [375, 1280]) {
      const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 900 });
      await context.addCookies([{ name: 'locale', value: locale, url: env.server.baseUrl }]);
      const page = await context.newPage();
      await page.goto(`${env.server.baseUrl}/classroom/${courseId}`, { waitUntil: 'networkidle' });
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      const table = page.getByTestId('insight');
      await table.waitFor();
      await table.scrollIntoViewIfNeeded();
      if (width === 375) {
        // One lecture at a time: its select has no "All lectures".
        expect(await page.getByTestId('insight-cell').count()).toBe(3);
      }
      // Nothing wider than the screen but the table's own scroller.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `teaching-teacher-${locale}-${width}`);
      await context.close();

      const studentContext = await signedInContext(env.browser, env.server, students.half.token, {
        width,
        height: 900,
      });
      await studentContext.addCookies([{ name: 'locale', value: locale, url: env.server.baseUrl }]);
      const studentPage = await studentContext.newPage();
      await studentPage.goto(`${env.server.baseUrl}/classroom`, { waitUntil: 'networkidle' });
      await studentPage.getByTestId('todo').waitFor();
      await screenshot(studentPage, `teaching-todo-${locale}-${width}`);
      await studentPage.goto(`${env.server.baseUrl}/classroom/${courseId}`, { waitUntil: 'networkidle' });
      await studentPage.getByTestId('watching-notice').waitFor();
      await screenshot(studentPage, `teaching-student-${locale}-${width}`);
      await studentContext.close();
    }
  }
}, 120_000);
