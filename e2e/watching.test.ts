import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-watch-'));
let student: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let inviteCode: string;

beforeAll(async () => {
  const teacher = await createAccount(env.server, env.mail, 'Richard Feynman', 'teacher');
  student = await createAccount(env.server, env.mail, 'Alice Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Physics 101' });
  courseId = course._id;
  inviteCode = course.inviteCode;
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const clip = await makeClip(clips, { width: 640, height: 360, seconds: 30, name: 'lecture.mp4' });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip), 'lecture.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  await teacher.api('POST', '/api/lectures', {
    courseId,
    nameOfTopic: 'Quantum electrodynamics',
    videoLink: uploaded.masterPlaylist,
  });
  const deadline = Date.now() + 90_000;
  while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') {
    if (Date.now() > deadline) throw new Error('video not ready');
    await Bun.sleep(250);
  }
}, 150_000);
afterAll(async () => {
  rmSync(clips, { recursive: true, force: true });
});

const videoState = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    return { time: video.currentTime, paused: video.paused, height: video.videoHeight };
  });

async function waitFor(page: Page, check: () => Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.waitForTimeout(100);
  }
}

test('a student watches: it plays, switches to 240p, Space pauses, resumes after reload, likes once, comments, takes notes', async () => {
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  const mediaRequests: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/media/') && !path.endsWith('.jpg')) mediaRequests.push(path.split('/').slice(4).join('/'));
  });
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`, { waitUntil: 'networkidle' });
  await page.getByRole('heading', { name: 'Quantum electrodynamics' }).waitFor();
  // Opening the class fetches no video: only the master playlist (for the quality menu) before Play.
  expect(mediaRequests).toEqual(['master.m3u8']);
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await waitFor(page, async () => (await videoState(page)).time > 1, 'playback to advance');
  expect(mediaRequests.some((path) => path.endsWith('.m4s'))).toBe(true);

  const player = page.getByRole('region', { name: 'Video player' });
  await page.getByLabel('Quality').selectOption({ label: '360p' });
  await waitFor(page, async () => (await player.getAttribute('data-level')) === '1', 'level 1');
  await page.getByLabel('Quality').selectOption({ label: '240p' });
  await waitFor(page, async () => (await player.getAttribute('data-level')) === '0', 'level 0');
  await waitFor(page, async () => (await videoState(page)).height === 240, '240p frames');
  await page.getByLabel('Playback speed').selectOption('1.5');
  expect(await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).playbackRate)).toBe(1.5);

  await waitFor(page, async () => (await videoState(page)).time > 8, 'eight seconds in');
  await player.focus();
  const beforeSeek = (await videoState(page)).time;
  await page.keyboard.press('ArrowLeft');
  expect((await videoState(page)).time).toBeLessThan(beforeSeek - 3);
  await waitFor(page, async () => (await videoState(page)).time > 7, 'seven seconds in again');
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/progress') && response.request().method() === 'PUT',
  );
  await page.keyboard.press('Space');
  const savedBody = (await (await saved).json()) as { position: number };
  expect((await videoState(page)).paused).toBe(true);
  expect(savedBody.position).toBeGreaterThan(5);
  await screenshot(page, 'course-student-desktop');

  await page.reload();
  await page.getByText('Resuming where you stopped.').waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await waitFor(page, async () => !(await videoState(page)).paused, 'playback after reload');
  await waitFor(
    page,
    async () => (await videoState(page)).time > savedBody.position - 1,
    'the resumed position',
    10_000,
  );
  // It resumed rather than played through from the start at 1× since the reload.
  expect((await videoState(page)).time).toBeLessThan(savedBody.position + 8);
  // Play left focus in the player, so Space pauses without a click on the picture.
  await page.keyboard.press('Space');

  await page.getByRole('button', { name: 'Like (0 likes)' }).click();
  await page.getByRole('button', { name: 'Unlike (1 like)' }).waitFor();
  await page.reload();
  await page.getByRole('button', { name: 'Unlike (1 like)' }).waitFor();

  await page.getByPlaceholder('Share your thoughts...').fill('   ');
  expect(await page.getByRole('button', { name: 'Add Comment' }).isDisabled()).toBe(true);
  await page.getByPlaceholder('Share your thoughts...').fill('  Why do photons take every path?  ');
  await page.getByRole('button', { name: 'Add Comment' }).click();
  await page.getByText('Why do photons take every path?').waitFor();
  await page.getByText('Alice Student').first().waitFor();

  await page.getByRole('textbox', { name: 'Course notes' }).fill('Sum over histories.');
  await page.getByRole('button', { name: 'Save Notes' }).click();
  await page.getByText('Note saved successfully').waitFor();

  await page.getByRole('link', { name: 'History' }).click();
  await page.waitForURL('**/history');
  await page.getByRole('heading', { name: 'History' }).waitFor();
  await page.getByRole('link', { name: /Quantum electrodynamics/ }).waitFor();
  await page.getByText(/\d+% watched/).waitFor();
  await screenshot(page, 'history');
  await context.close();
});

test('a reply is shown under the comment it answers (oldest first, "Reply to" its author), not as its own comment', async () => {
  const asker = await createAccount(env.server, env.mail, 'Quinn Asker', 'student');
  await asker.api('POST', '/api/enrollments/join', { inviteCode });
  const [lecture] = await asker.api('GET', `/api/lectures/course/${courseId}`);
  const lectureId = lecture._id as string;
  const question = await asker.api('POST', `/api/lectures/${lectureId}/comments`, { text: 'Is light a wave?' });
  await asker.api('POST', `/api/lectures/${lectureId}/comments`, { text: 'A later question' });

  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 812 });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  const thread = page
    .getByRole('listitem')
    .filter({ has: page.getByText('Is light a wave?', { exact: true }) })
    .last();
  await thread.getByRole('button', { name: 'Reply to Quinn Asker' }).first().click();
  await page.getByPlaceholder('Share your thoughts...').fill('Both, it depends on the experiment.');
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  const replies = page.getByRole('list', { name: 'Replies to Quinn Asker' });
  await replies.getByText('Both, it depends on the experiment.').waitFor();
  await replies.getByText('Reply to Quinn Asker').waitFor();
  // A second, later reply comes after the first one.
  await asker.api('POST', `/api/lectures/${lectureId}/comments`, {
    text: 'Thanks!',
    parentId: question._id,
  });
  await page.reload();
  await replies.getByText('Thanks!').waitFor();
  expect(await replies.getByRole('listitem').allInnerTexts()).toEqual([
    expect.stringContaining('Both, it depends on the experiment.'),
    expect.stringContaining('Thanks!'),
  ]);
  // The replies list sits inside the question's item, indented under its text; the top level has only questions.
  const topLevel = page.locator('section[aria-labelledby="comments-title"] > div > ul > li');
  const tops = await topLevel.evaluateAll((items) =>
    items.map((item) => item.querySelector(':scope > div > div p.whitespace-pre-wrap')?.textContent),
  );
  expect(tops).toContain('Is light a wave?');
  expect(tops).not.toContain('Both, it depends on the experiment.');
  expect(tops).not.toContain('Thanks!');
  const questionBox = (await thread.getByText('Is light a wave?', { exact: true }).boundingBox())!;
  const replyBox = (await replies.getByText('Both, it depends on the experiment.').boundingBox())!;
  expect(replyBox.y).toBeGreaterThan(questionBox.y);
  expect(replyBox.x).toBeGreaterThan(questionBox.x);
  await context.close();
});

test('on a phone (375×812) the course page fits without horizontal scrolling', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 812 });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  await page.getByRole('heading', { name: 'Quantum electrodynamics' }).waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await waitFor(page, async () => (await videoState(page)).time > 0.5, 'playback on the phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'course-student-phone-player');
  await context.close();
});

test('notes that fail to load show an error with Retry, never an empty box whose Save would overwrite them', async () => {
  // The student's saved notes from the test above.
  expect((await student.api('GET', `/api/enrollments/${courseId}/notes`)).notes).toBe('Sum over histories.');
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  let failNotes = true;
  await page.route('**/api/enrollments/*/notes', (route) =>
    failNotes && route.request().method() === 'GET'
      ? route.fulfill({ status: 502, contentType: 'text/plain', body: 'Bad gateway' })
      : route.continue(),
  );
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  const notes = page.getByRole('region', { name: 'Course Notes' });
  await notes.getByText('Could not load your notes.').waitFor();
  expect(await notes.getByRole('textbox', { name: 'Course notes' }).count()).toBe(0);
  expect(await notes.getByRole('button', { name: 'Save Notes' }).count()).toBe(0);
  await screenshot(page, 'notes-load-failed');

  failNotes = false;
  await notes.getByRole('button', { name: 'Retry' }).click();
  await expect(notes.getByRole('textbox', { name: 'Course notes' }).inputValue()).resolves.toBe('Sum over histories.');
  expect((await student.api('GET', `/api/enrollments/${courseId}/notes`)).notes).toBe('Sum over histories.');
  await context.close();
});

test('history and the class list show an error with Retry when their request fails, not "nothing here"', async () => {
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  let fail = true;
  await page.route(/\/api\/(history|courses)$/, (route) =>
    fail
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Down for a moment."}' })
      : route.continue(),
  );
  await page.goto(`${env.server.baseUrl}/history`);
  await page.getByText('Could not load your history.').waitFor();
  expect(await page.getByText('Nothing here yet').count()).toBe(0);
  await page.goto(`${env.server.baseUrl}/classroom`);
  await page.getByText('Could not load your classes.').waitFor();
  expect(await page.getByText('No classes yet').count()).toBe(0);
  fail = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await page
    .getByRole('link', { name: /Physics 101/ })
    .first()
    .waitFor();
  await context.close();
});
