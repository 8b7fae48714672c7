import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCuttingProxy } from '../src/test/cutting-proxy';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, signedInContext } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-uploads-'));
let big: string;
let teacher: Awaited<ReturnType<typeof createAccount>>;

beforeAll(async () => {
  // About 6 MB: long enough, at the throttled 1.5 MB/s below, to cut or reload in the middle.
  big = await makeClip(clips, { width: 640, height: 360, seconds: 12, crf: 4, name: 'big-lecture.mp4' });
  teacher = await createAccount(env.server, env.mail, 'Upload Teacher', 'teacher');
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

/** Every tus PATCH the page sends, with the offset it starts from. */
function recordPatches(page: Page) {
  const offsets: number[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PATCH' && request.url().includes('/api/uploads/')) {
      offsets.push(Number(request.headers()['upload-offset']));
    }
  });
  return offsets;
}

async function throttleUpload(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return {
    offline: (offline: boolean) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline,
        latency: 20,
        downloadThroughput: -1,
        uploadThroughput: bytesPerSecond,
      }),
  };
}

const percentOf = async (page: Page) =>
  Number((await page.getByTestId('upload-tray').getByRole('progressbar').first().getAttribute('aria-valuenow')) ?? 0);

async function waitForPercent(page: Page, atLeast: number) {
  const deadline = Date.now() + 30_000;
  while ((await percentOf(page)) < atLeast) {
    if (Date.now() > deadline) throw new Error(`upload stuck below ${atLeast}%`);
    await page.waitForTimeout(100);
  }
}

async function addTopic(page: Page, courseId: string, name: string, file: string, baseUrl = env.server.baseUrl) {
  await page.goto(`${baseUrl}/classroom/${courseId}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Video File').setInputFiles(file);
  await page.getByLabel('Topic Name').fill(name);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

const topicNames = async (courseId: string) =>
  ((await teacher.api('GET', `/api/lectures/course/${courseId}`)) as { nameOfTopic: string }[])
    .map((lecture) => lecture.nameOfTopic)
    .sort();

test('an upload cut by the network goes on from where the server stopped, and completes', async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Flaky Wi-Fi' });
  // The page talks to the server through a proxy that can drop every connection, as a Wi-Fi drop would.
  const proxy = await startCuttingProxy({ hostname: '127.0.0.1', port: Number(new URL(env.server.baseUrl).port) });
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  const patches = recordPatches(page);
  await throttleUpload(page, 1_500_000);
  await addTopic(page, course._id, 'Cut and resumed', big, proxy.baseUrl);
  await waitForPercent(page, 30);
  proxy.cut(2_000);
  await page.getByTestId('upload-row').and(page.locator('[data-status="retrying"]')).waitFor();
  await page
    .getByRole('region', { name: 'Course Playlist' })
    .getByRole('listitem')
    .filter({ hasText: 'Cut and resumed' })
    .waitFor({ timeout: 60_000 });
  expect(await topicNames(course._id)).toEqual(['Cut and resumed']);
  // It went on from the server's bytes: a later PATCH started well past zero, and not much was sent twice.
  const size = statSync(big).size;
  expect(patches[0]).toBe(0);
  expect(patches.length).toBeGreaterThan(1);
  expect(Math.max(...patches.slice(1))).toBeGreaterThan(size * 0.2);
  expect(proxy.bytesUp()).toBeLessThan(size * 1.5);
  proxy.stop();
  await context.close();
});

test("an upload interrupted by a reload goes on from the server's bytes when its file is picked again", async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Reloaded' });
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  const patches = recordPatches(page);
  await throttleUpload(page, 1_500_000);
  await addTopic(page, course._id, 'Survives a reload', big);
  await waitForPercent(page, 35);
  page.on('dialog', (dialog) => dialog.accept());
  await page.reload();
  const interrupted = page.getByTestId('interrupted-row');
  await interrupted.getByText('Survives a reload').waitFor();
  await interrupted.locator('input[type=file]').setInputFiles(big);
  await page
    .getByRole('region', { name: 'Course Playlist' })
    .getByText('Survives a reload')
    .waitFor({ timeout: 60_000 });
  expect(await topicNames(course._id)).toEqual(['Survives a reload']);
  expect(patches[0]).toBe(0);
  expect(patches.at(-1)).toBeGreaterThan(statSync(big).size * 0.3);
  await context.close();
});

test('closing the modal keeps the upload going in the tray, across pages; leaving asks first; Cancel asks first', async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Busy Teacher' });
  const other = await teacher.api('POST', '/api/courses', { courseName: 'Other Class' });
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await throttleUpload(page, 1_500_000);
  await addTopic(page, course._id, 'Kept going', big);
  await waitForPercent(page, 5);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog').count()).resolves.toBe(0);
  // Another class, in the app (no reload): the tray is still there and the upload finishes.
  await page.getByRole('link', { name: 'Home' }).first().click();
  await page.getByText('Other Class').first().waitFor();
  expect(await page.getByTestId('upload-row').count()).toBe(1);

  // While it runs, leaving the page asks the browser's "Leave site?" question.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  await page.getByTestId('upload-row').first().waitFor({ state: 'attached' });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="upload-row"]')?.getAttribute('data-status') === 'done',
    undefined,
    { timeout: 60_000 },
  );
  expect(await topicNames(course._id)).toEqual(['Kept going']);

  // Cancel asks first, then deletes what the server had.
  await page.goto(`${env.server.baseUrl}/classroom/${other._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Video File').setInputFiles(big);
  await page.getByLabel('Topic Name').fill('Never mind');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await waitForPercent(page, 5);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Cancel upload of big-lecture.mp4' }).click();
  await page.getByText('Cancel this upload?').waitFor();
  await page.getByRole('button', { name: 'Cancel upload', exact: true }).click();
  await expect(page.getByTestId('upload-row').count()).resolves.toBe(0);
  await page.waitForTimeout(500);
  expect(await topicNames(other._id)).toEqual([]);
  await context.close();
});

test('several files at once become several topics, named after their files', async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Batch' });
  const files = await Promise.all(
    ['week-1_intro.mp4', 'week-2_waves.mp4', 'week-3_optics.mp4'].map((name) =>
      makeClip(clips, { width: 320, height: 240, seconds: 2, name }),
    ),
  );
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Video File').setInputFiles(files);
  await page.getByLabel('Topic name for week-2_waves.mp4').fill('Waves, revised');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const playlist = page.getByRole('region', { name: 'Course Playlist' });
  for (const name of ['week 1 intro', 'Waves, revised', 'week 3 optics']) {
    await playlist.getByRole('listitem').filter({ hasText: name }).waitFor({ timeout: 60_000 });
  }
  expect(await topicNames(course._id)).toEqual(['Waves, revised', 'week 1 intro', 'week 3 optics']);
  await context.close();
});
