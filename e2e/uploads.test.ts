import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startCuttingProxy } from '../src/test/cutting-proxy';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

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
  // Finished uploads leave the tray by themselves a few seconds later, and the tray with them.
  await page.getByTestId('upload-tray').waitFor({ state: 'detached', timeout: 20_000 });
  await context.close();
});

test('a file that is not a video is refused at once: no bar, no Retry, and a reload does not list it', async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Not a video' });
  const notes = join(clips, 'notes.txt');
  writeFileSync(notes, 'These are my notes, not a video.\n'.repeat(50));
  const fake = join(clips, 'fake-lecture.mp4');
  writeFileSync(fake, 'still not a video, whatever its name says\n'.repeat(2000));
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  const creations: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/uploads')) creations.push(request.url());
  });

  // Known not to be a video from its type: said at once, and nothing is sent.
  await addTopic(page, course._id, 'Notes', notes);
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('alert').filter({ hasText: '"notes.txt" is not a video.' }).waitFor();
  expect(await dialog.getByRole('progressbar').count()).toBe(0);
  expect(await dialog.getByText('goes on in the uploads tray').count()).toBe(0);
  const refusedRow = page.getByTestId('upload-row').and(page.locator('[data-status="refused"]'));
  await refusedRow.waitFor();
  expect(await page.getByTestId('upload-tray').getByRole('button', { name: /Retry/ }).count()).toBe(0);
  expect(await page.getByTestId('upload-tray').getByRole('progressbar').count()).toBe(0);
  expect(creations).toEqual([]);

  // In a batch, the same at once, and nothing of the batch starts.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Video File').setInputFiles([big, notes]);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.getByRole('alert').filter({ hasText: '"notes.txt" is not a video.' }).waitFor();
  expect(await page.getByTestId('upload-row').count()).toBe(1);
  expect(creations).toEqual([]);

  // Named like a video but not one: the server's ffprobe refuses it when its bytes land; the same, no Retry.
  await page.keyboard.press('Escape');
  await addTopic(page, course._id, 'Fake', fake);
  await dialog.getByRole('alert').filter({ hasText: /video/i }).waitFor({ timeout: 30_000 });
  expect(await dialog.getByRole('progressbar').count()).toBe(0);
  await refusedRow.waitFor();
  expect(await page.getByTestId('upload-tray').getByRole('button', { name: /Retry/ }).count()).toBe(0);
  expect(creations.length).toBe(1);
  expect(await topicNames(course._id)).toEqual([]);

  // After a reload nothing says "Interrupted, choose the file again": this browser kept nothing to resume.
  await page.reload();
  await page.getByRole('heading', { name: 'Not a video' }).first().waitFor();
  await page.waitForTimeout(500);
  expect(await page.getByTestId('interrupted-row').count()).toBe(0);
  expect(await page.getByTestId('upload-tray').count()).toBe(0);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')))).toEqual([]);
  await context.close();
}, 90_000);

/** How a file input looks: its height, border and its picker button's colour. */
const fileLook = (input: import('playwright-core').Locator) =>
  input.evaluate((element) => ({
    height: Math.round(element.getBoundingClientRect().height),
    border: getComputedStyle(element).borderTopStyle,
    button: getComputedStyle(element, '::file-selector-button').backgroundColor,
  }));

test('the tray docks in the page without hiding a control: collapsed on a phone, Clear finished', async () => {
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Docked' });
  for (const name of ['First topic', 'Second topic', 'Last topic']) {
    await teacher.api('POST', '/api/lectures', { courseId: course._id, nameOfTopic: name, videoLink: null });
  }
  const notes = join(clips, 'slides.pdf');
  writeFileSync(notes, '%PDF-1.4 not a video');
  for (const width of [375, 1024]) {
    const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 800 });
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
    await page.getByRole('button', { name: 'Add New Topic' }).click();
    await page.getByLabel('Video File').setInputFiles(notes);
    await page.getByLabel('Topic Name').fill('Slides');
    // Three refused files: a tray with something in it, as the UX walk had.
    for (let i = 0; i < 3; i++) await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.keyboard.press('Escape');
    const tray = page.getByTestId('upload-tray');
    await tray.waitFor();
    expect({ width, collapsed: await tray.getAttribute('data-collapsed') }).toEqual({
      width,
      collapsed: width < 640 ? 'true' : 'false',
    });
    if (width < 640) {
      expect((await tray.boundingBox())?.height ?? 999).toBeLessThanOrEqual(64);
      await tray.getByRole('button', { name: 'Show uploads' }).click();
    }
    expect(await page.getByTestId('upload-row').count()).toBe(3);
    await screenshot(page, `upload-tray-refused-${width}`);

    // The tray lies in the page's flow: over no control (the walk found a fixed tray over "Add New Topic" and the
    // player's controls at 1024), at the top of the page or scrolled to its end.
    const coveredControls = () =>
      page.evaluate(() => {
        const tray = document.querySelector('[data-testid="upload-tray"]') as HTMLElement;
        const t = tray.getBoundingClientRect();
        const hidden: string[] = [];
        for (const control of document.querySelectorAll<HTMLElement>(
          'button, a[href], input, select, textarea, [role="button"], video',
        )) {
          if (tray.contains(control)) continue;
          const box = control.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const apart = box.right <= t.left || box.left >= t.right || box.bottom <= t.top || box.top >= t.bottom;
          if (!apart) hidden.push(control.getAttribute('aria-label') || control.textContent?.trim() || control.tagName);
        }
        return hidden;
      });
    await page.waitForLoadState('networkidle');
    expect({ width, covered: await coveredControls() }).toEqual({ width, covered: [] });
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    expect({ width, covered: await coveredControls() }).toEqual({ width, covered: [] });
    // "Add New Topic" and the last topic's menu take their clicks with the refused files still listed.
    await page.getByRole('button', { name: 'Add New Topic' }).click({ timeout: 5000 });
    await page.getByRole('dialog').waitFor();
    const videoLook = await fileLook(page.getByRole('dialog').getByLabel('Video File'));
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Actions for Last topic' }).click({ timeout: 5000 });
    await page.getByRole('menuitem', { name: 'Edit' }).click({ timeout: 5000 });
    const edit = page.getByRole('dialog', { name: 'Edit Topic' });
    await edit.waitFor();
    // At rest: the pointer left where the menu's Edit was (the taller dialog can put the caption picker under it,
    // and a hovered picker is darker).
    await page.mouse.move(0, 0);
    // The caption file field looks like the video file field: a button-styled picker, not a tall bordered box.
    expect({ width, caption: await fileLook(edit.getByLabel(/Caption file/)) }).toEqual({ width, caption: videoLook });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Clear finished takes the refused files away, and the tray with them.
    await tray.getByRole('button', { name: 'Clear finished' }).click();
    await tray.waitFor({ state: 'detached' });
    await context.close();
  }
}, 90_000);
