import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip } from '../src/test/fixtures';
import { waitForVideo } from '../src/test/wait';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-search-'));
let student: Awaited<ReturnType<typeof createAccount>>;
let outsider: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let lectureId: string;

/** What the teacher's captions say, and when: the phrase the student looks for is said at 0:17. */
const VTT = `WEBVTT

00:00:01.000 --> 00:00:04.000
Welcome to the lecture on cells.

00:00:17.000 --> 00:00:20.000
The mitochondria is the powerhouse of the cell.

00:00:22.000 --> 00:00:24.000
Thank you for watching.
`;

beforeAll(async () => {
  const teacher = await createAccount(env.server, env.mail, 'Search Teacher', 'teacher');
  student = await createAccount(env.server, env.mail, 'Search Student', 'student');
  outsider = await createAccount(env.server, env.mail, 'Search Outsider', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Biology 101' });
  courseId = course._id;
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  // The outsider is in a class of their own, which has its own lecture.
  const otherTeacher = await createAccount(env.server, env.mail, 'Other Teacher', 'teacher');
  const other = await otherTeacher.api('POST', '/api/courses', { courseName: 'Art history' });
  await outsider.api('POST', '/api/enrollments/join', { inviteCode: other.inviteCode });
  await otherTeacher.api('POST', '/api/lectures', { courseId: other._id, nameOfTopic: 'Renaissance painting' });

  const form = new FormData();
  form.append('uploadedFile', Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 26, name: 'c.mp4' })));
  form.append('courseId', courseId);
  form.append('nameOfTopic', 'Cell structure');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  lectureId = uploaded.lectureId;
  await waitForVideo('cells', () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
  const captions = new FormData();
  captions.append('file', new File([VTT], 'cells.vtt'));
  captions.append('language', 'en');
  captions.append('label', 'English');
  const added = await teacher.api('POST', `/api/lectures/${lectureId}/captions`, captions);
  if (!added?.id) throw new Error(`setup: captions were not saved: ${JSON.stringify(added)}`);
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function signedIn(token: string, viewport = { width: 1280, height: 800 }) {
  const context = await env.browser.newContext({ viewport });
  await context.addCookies([{ name: 'token', value: token, url: env.server.baseUrl }]);
  return { context, page: await context.newPage() };
}

test('a student searches a phrase said in the captions, opens the hit and the lecture plays from that second', async () => {
  const { context, page } = await signedIn(student.token);
  try {
    await page.goto(`${env.server.baseUrl}/classroom`);
    const box = page.getByRole('search', { name: 'Search my classes' }).getByRole('searchbox');
    await box.fill('powerhouse of the cell');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=powerhouse/);
    const hit = page.getByTestId('search-hit').filter({ hasText: 'powerhouse' });
    await hit.first().waitFor();
    await expect(hit.first().innerText()).resolves.toContain('Said in the lecture');
    await expect(hit.first().innerText()).resolves.toContain('0:17');
    // The matched words are marked as text (<mark>), never as HTML from the server.
    expect(await hit.first().locator('mark').allInnerTexts()).toEqual(expect.arrayContaining(['powerhouse', 'cell']));
    await expect(page.getByRole('list', { name: 'Search results' }).getByText('Biology 101').isVisible()).resolves.toBe(
      true,
    );
    await screenshot(page, 'search-results-1280');

    await hit.first().click();
    await page.waitForURL(new RegExp(`/classroom/${courseId}\\?lecture=${lectureId}`));
    await page.getByTestId('video-player').waitFor();
    await page.waitForFunction(
      () => {
        const video = document.querySelector('video');
        return video !== null && video.readyState >= 1 && video.currentTime >= 16;
      },
      undefined,
      { timeout: 20_000 },
    );
    const time = await page.evaluate(() => (document.querySelector('video') as HTMLVideoElement).currentTime);
    expect(time).toBeGreaterThanOrEqual(16);
    expect(time).toBeLessThanOrEqual(19);
    // The jump is done: the address keeps the lecture, not the time.
    expect(new URL(page.url()).searchParams.get('t')).toBeNull();
  } finally {
    await context.close();
  }
});

test("the class page's search looks in that class; a query with only punctuation is answered in words", async () => {
  const { context, page } = await signedIn(student.token, { width: 375, height: 812 });
  try {
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    const box = page.getByRole('search', { name: 'Search in Biology 101' }).getByRole('searchbox');
    await box.fill('mitochondria');
    await box.press('Enter');
    await page.waitForURL(new RegExp(`/search\\?q=mitochondria&courseId=${courseId}`));
    await page.getByTestId('search-hit').first().waitFor();
    await expect(page.getByRole('status').filter({ hasText: 'in Biology 101' }).isVisible()).resolves.toBe(true);
    await screenshot(page, 'search-results-375');
    // No horizontal scrolling at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await page.goto(`${env.server.baseUrl}/search?q=${encodeURIComponent('"*-')}`);
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Please search for words or numbers');
    await page.goto(`${env.server.baseUrl}/search?q=zebra`);
    await page.getByText('No matches for “zebra”').waitFor();
  } finally {
    await context.close();
  }
});

test("an outsider's search shows nothing from that class", async () => {
  const { context, page } = await signedIn(outsider.token, { width: 768, height: 1024 });
  try {
    for (const query of ['powerhouse', 'mitochondria', 'cell structure', 'Biology']) {
      await page.goto(`${env.server.baseUrl}/search?q=${encodeURIComponent(query)}`);
      await page.getByText(`No matches for “${query}”`).waitFor();
      expect(await page.getByTestId('search-hit').count()).toBe(0);
      expect(await page.getByText('Biology 101').count()).toBe(0);
    }
    // Their own class is searchable to them.
    await page.goto(`${env.server.baseUrl}/search?q=renaissance`);
    await page.getByTestId('search-hit').first().waitFor();
    await expect(page.getByTestId('search-hit').first().innerText()).resolves.toContain('Renaissance painting');
    // Asking for the other class by id answers like a class that does not exist.
    await page.goto(`${env.server.baseUrl}/search?q=cell&courseId=${courseId}`);
    await expect(page.getByRole('alert').innerText()).resolves.toContain('Class not found');
  } finally {
    await context.close();
  }
});

test("offline, a new search never shows the last one's hits under the new words: it says it is offline, with Retry", async () => {
  const { context, page } = await signedIn(student.token, { width: 375, height: 812 });
  try {
    await page.goto(`${env.server.baseUrl}/classroom`);
    const box = page.getByRole('search', { name: 'Search my classes' }).getByRole('searchbox');
    await box.fill('cell structure');
    await box.press('Enter');
    await page.getByTestId('search-hit').filter({ hasText: 'Cell structure' }).first().waitFor();

    await context.setOffline(true);
    await box.fill('powerhouse');
    await box.press('Enter');
    await page.waitForURL(/\/search\?q=powerhouse/);
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load search results.' });
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toContain('You are offline');
    expect(await page.getByTestId('search-hit').count()).toBe(0);
    expect(await page.getByText('for “powerhouse”').count()).toBe(0);
    expect(await page.getByRole('status', { name: 'Loading search results' }).count()).toBe(0);
    await screenshot(page, 'search-offline-375');

    await context.setOffline(false);
    // Back online, Retry (if the query has not already resumed by itself) shows the new words' hits.
    const retry = alert.getByRole('button', { name: 'Retry' });
    if (await retry.isVisible()) await retry.click().catch(() => {});
    const hit = page.getByTestId('search-hit').filter({ hasText: 'powerhouse' });
    await hit.first().waitFor({ timeout: 10_000 });
    expect(await hit.first().locator('mark').allInnerTexts()).toContain('powerhouse');
    await expect(page.getByRole('status').filter({ hasText: 'for “powerhouse”' }).isVisible()).resolves.toBe(true);
  } finally {
    await context.close();
  }
});
