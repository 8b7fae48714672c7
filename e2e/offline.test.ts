import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { makeSlidesClip } from '../src/test/slides-clip';
import { waitForVideo, waitUntil } from '../src/test/wait';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

/** Offline viewing (docs/offline.md): the installable app, lectures saved for offline, notes written offline. */
// The app's service worker is what these tests are about: allowed here, blocked in the other files.
const env = e2eEnvironment(undefined, { serviceWorkers: 'allow' });
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-offline-'));
let teacher: Awaited<ReturnType<typeof createAccount>>;
let student: Awaited<ReturnType<typeof createAccount>>;
let openCourse: string;
let closedCourse: string;
let lectureId: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Offline Teacher', 'teacher');
  student = await createAccount(env.server, env.mail, 'Offline Student', 'student');
  const open = await teacher.api('POST', '/api/courses', { courseName: 'Waves Offline' });
  const closed = await teacher.api('POST', '/api/courses', { courseName: 'Closed Doors' });
  openCourse = open._id;
  closedCourse = closed._id;
  await student.api('POST', '/api/enrollments/join', { inviteCode: open.inviteCode });
  await student.api('POST', '/api/enrollments/join', { inviteCode: closed.inviteCode });
  const form = new FormData();
  form.append(
    'uploadedFile',
    Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 8, name: 'waves.mp4' })),
  );
  form.append('courseId', openCourse);
  form.append('nameOfTopic', 'Waves on a string');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  lectureId = uploaded.lectureId;
  await waitForVideo('waves', () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
  const captions = new FormData();
  captions.append('file', new Blob(['WEBVTT\n\n00:00:00.500 --> 00:00:07.000\nA wave carries energy.\n']), 'waves.vtt');
  captions.append('language', 'en');
  captions.append('label', 'English');
  await teacher.api('POST', `/api/lectures/${lectureId}/captions`, captions);
  await teacher.api('POST', '/api/lectures', {
    courseId: closedCourse,
    nameOfTopic: 'Behind closed doors',
    videoLink: uploaded.masterPlaylist,
  });
  // The teacher's switch, through the API the class page's checkbox uses.
  const switched = await teacher.api('PATCH', `/api/courses/${closedCourse}`, { downloadsAllowed: false });
  expect(switched.downloadsAllowed).toBe(false);
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

const videoTime = (page: Page) => page.evaluate(() => document.querySelector('video')?.currentTime ?? 0);
const offlineCaches = (page: Page) =>
  page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith('classroom-offline-')));

/** Scripts and styles in the worker's shell cache that the page itself never asked for (downloaded by the worker). */
const shellFilesNotAskedByThePage = (page: Page) =>
  page.evaluate(async () => {
    const asked = new Set(performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname));
    const shell = (await caches.keys()).find((name) => name.startsWith('classroom-shell-'));
    const kept = shell ? await (await caches.open(shell)).keys() : [];
    return kept
      .map((request) => new URL(request.url).pathname)
      .filter((path) => /^\/assets\//.test(path) && !asked.has(path));
  });

async function openLecture(context: BrowserContext, course = openCourse, lecture = lectureId) {
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course}?lecture=${lecture}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  return page;
}

test('a saved lecture plays offline after a reload, with its captions; a note written offline reaches the server; Remove frees it', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 812 });
  const page = await openLecture(context);
  // Nothing saved yet: the worker keeps only the code this page downloaded itself, so a first visit downloads no
  // precached shell (sw/service-worker.ts).
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
  expect(await shellFilesNotAskedByThePage(page)).toEqual([]);

  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByText(/Saved on this device \(/).waitFor({ timeout: 30_000 });
  // The save registered the worker, which takes the page with the shell precached.
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });

  // The manifest and the worker make it installable (Chromium's own check).
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  // Playwright's contexts are incognito-like profiles, where Chromium never offers an install.
  expect(installabilityErrors.map((error) => error.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
  await screenshot(page, 'offline-saved-375');
  expect(await offlineCaches(page)).toEqual([`classroom-offline-${student.user._id}`]);

  await context.setOffline(true);
  await page.reload();
  await page.getByRole('heading', { name: 'Waves Offline', level: 1 }).waitFor();
  // Really offline: an answer the worker does not keep fails.
  expect(
    await page.evaluate(() =>
      fetch('/api/health').then(
        () => 'reached',
        () => 'offline',
      ),
    ),
  ).toBe('offline');
  // Comments are not saved: their box says it cannot load them, with Retry; never a spinner for ever, nor "no comments".
  const comments = page.getByRole('region', { name: 'Comments' });
  await comments.getByRole('alert').getByText('Could not load comments.').waitFor({ timeout: 15_000 });
  await comments.getByRole('button', { name: 'Retry' }).waitFor();
  expect(await comments.getByText(/Loading comments|No comments yet/).count()).toBe(0);
  // A page that heard the connection drop (its `offline` event, sent here as the browser does to an open page) holds
  // new loads back: asked again, the box says the browser is offline instead of spinning; back online they load.
  await page.evaluate(() => window.dispatchEvent(new Event('offline')));
  await comments.getByRole('button', { name: 'Retry' }).click();
  await comments.getByText('You are offline. This will load by itself once you are back online.').waitFor();
  expect(await comments.getByRole('status', { name: 'Loading comments' }).count()).toBe(0);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await comments.getByText('Cannot reach the server. Check your connection.').waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).first().click();
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1.5, undefined, {
    timeout: 30_000,
  });
  expect(await videoTime(page)).toBeGreaterThan(1.5);
  // What was played offline waits on this device, to be counted once the connection is back (issue 33).
  await page.evaluate(() => document.querySelector('video')?.pause());
  // (Queued once its send has failed: the page's `navigator.onLine` can still say online here.)
  await page.waitForFunction(
    (key) => Object.keys(JSON.parse(localStorage.getItem(key) ?? '{}')).length > 0,
    `classroom.coverage.${student.user._id}`,
    { timeout: 10_000 },
  );
  expect(
    await page.evaluate(
      (key) => Object.keys(JSON.parse(localStorage.getItem(key) ?? '{}')),
      `classroom.coverage.${student.user._id}`,
    ),
  ).toEqual([lectureId]);
  // The captions come from the saved copy too.
  const captionUrl = await page.evaluate(() => document.querySelector('track')?.getAttribute('src') ?? '');
  expect(captionUrl).toContain(`/api/lectures/${lectureId}/captions/`);
  expect(await page.evaluate((url) => fetch(url).then((answer) => answer.text()), captionUrl)).toContain(
    'A wave carries energy.',
  );
  await screenshot(page, 'offline-playing-375');

  // Notes written offline wait on the device, then reach the server when the connection returns.
  const note = `Written on the bus ${Date.now()}`;
  await page.getByRole('textbox', { name: 'Course notes' }).fill(note);
  await page.getByText('Saved on this device — will sync when you are back online').waitFor({ timeout: 10_000 });
  expect((await student.api('GET', `/api/enrollments/${openCourse}/notes`)).notes).toBe('');
  await context.setOffline(false);
  await waitUntil(
    'the offline note reaches the server',
    async () => (await student.api('GET', `/api/enrollments/${openCourse}/notes`)).notes === note,
  );
  await page.getByText('Saved. Only you can see these').waitFor({ timeout: 10_000 });
  await waitUntil('the coverage played offline reaches the server', async () => {
    const mine = await student.api('GET', `/api/courses/${openCourse}/insight/students/${student.user._id}`);
    return (mine.lectures ?? []).some(
      (lecture: { lectureId: string; percent: number }) => lecture.lectureId === lectureId && lecture.percent > 0,
    );
  });
  // Back online, Retry loads them.
  await comments.getByRole('button', { name: 'Retry' }).click();
  await comments.getByText('No comments yet. Start the conversation.').waitFor({ timeout: 10_000 });

  // The Downloads page lists it with its size and the storage quota; Remove deletes the copy.
  await page.goto(`${env.server.baseUrl}/downloads`);
  const list = page.getByRole('list', { name: 'Saved lectures' });
  await list.getByText('Waves on a string').waitFor();
  await page
    .getByTestId('storage-estimate')
    .getByText(/This site uses .* of the .* this browser allows it\./)
    .waitFor();
  for (const width of [375, 768, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await list.getByText('Waves on a string').waitFor();
    await screenshot(page, `offline-downloads-${width}`);
  }
  await page.getByRole('button', { name: 'Remove Waves on a string' }).click();
  await page.getByText('No lectures saved on this device').waitFor();
  expect(await offlineCaches(page)).toEqual([]);
  await context.close();
});

test('Cancel removes a save in progress; a reload in the middle of one never shows the half copy as saved', async () => {
  const context = await signedInContext(env.browser, env.server, student.token);
  // The second segment never arrives: the save is stuck half-way when the page reloads.
  await context.route(/\/seg_00001\.m4s$/, () => {});
  const page = await openLecture(context);
  // Cancel stops it and removes what it wrote.
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByRole('progressbar', { name: 'Saving for offline' }).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Download for offline' }).waitFor();
  await waitUntil('the cancelled save left no cache', async () => (await offlineCaches(page)).length === 0);
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByRole('progressbar', { name: 'Saving for offline' }).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).waitFor();
  await page.reload();
  // Either the page's own clean-up ran as it closed (nothing listed) or the entry says it did not finish.
  await page.getByRole('button', { name: /^Download (for offline|again)$/ }).waitFor();
  expect(await page.getByText(/Saved on this device \(/).count()).toBe(0);
  await page.goto(`${env.server.baseUrl}/downloads`);
  await page.getByRole('heading', { name: 'Downloads' }).waitFor();
  const unfinished = page.getByText('Not finished: open the lecture to download it again, or remove it.');
  if ((await unfinished.count()) > 0) await page.getByRole('button', { name: 'Remove Waves on a string' }).click();
  await page.getByText('No lectures saved on this device').waitFor();
  // No half copy is left in the cache either (removed, or pruned at the app's start).
  await waitUntil('no offline cache', async () => (await offlineCaches(page)).length === 0);
  await context.close();
});

test("with nothing saved, the app opens offline on its own page, which points to Downloads, and keeps nobody's data", async () => {
  const newcomer = await createAccount(env.server, env.mail, 'Offline Newcomer', 'student');
  const context = await signedInContext(env.browser, env.server, newcomer.token, { width: 375, height: 812 });
  const page = await context.newPage();
  try {
    await page.goto(`${env.server.baseUrl}/classroom`);
    await page.getByRole('heading', { name: 'Your classes' }).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
    await context.setOffline(true);
    // A reload and a page never opened: the worker's shell, not the browser's "No internet" page.
    for (const path of ['/classroom', '/history']) {
      await page.goto(`${env.server.baseUrl}${path}`);
      await page.getByRole('heading', { name: 'You are offline' }).waitFor();
      await page.getByText('play from Downloads without a connection').waitFor();
    }
    expect(await page.title()).toBe('You are offline · Classroom');
    await page.getByText('This page loads by itself once you are back online.').waitFor();
    await screenshot(page, 'offline-nothing-saved-375');
    // Nothing of the person was kept to open it.
    expect(await offlineCaches(page)).toEqual([]);
    // Back online it loads by itself, with no Try again pressed (as the app's other offline screens do).
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'History' }).waitFor();
  } finally {
    await context.close();
  }
}, 90_000);

test('sign-out deletes what was saved for offline', async () => {
  // Someone of their own: signing out ends the session on the server too.
  const leaver = await createAccount(env.server, env.mail, 'Offline Leaver', 'student');
  const { inviteCode } = await teacher.api('GET', `/api/courses/${openCourse}`);
  await leaver.api('POST', '/api/enrollments/join', { inviteCode });
  const context = await signedInContext(env.browser, env.server, leaver.token);
  const page = await openLecture(context);
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByText(/Saved on this device \(/).waitFor({ timeout: 30_000 });
  expect(await offlineCaches(page)).toHaveLength(1);
  // A note that cannot reach the server: Logout says it would be lost, and asks.
  await context.setOffline(true);
  await page.getByRole('textbox', { name: 'Course notes' }).fill('Never sent');
  await page.getByText('Saved on this device — will sync when you are back online').waitFor({ timeout: 10_000 });
  await page.getByRole('link', { name: 'Open settings' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Notes not sent yet' });
  await dialog.waitFor();
  await screenshot(page, 'offline-logout-unsent-notes-1280');
  await dialog.getByRole('button', { name: 'Log out and lose them' }).click();
  await page.waitForURL(/\/login$/);
  await context.setOffline(false);
  await waitUntil('the offline cache is gone', async () => (await offlineCaches(page)).length === 0);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('classroom.')))).toEqual(
    [],
  );
  await context.close();
});

test('removed from the class: the next online check deletes the saved copy and says why', async () => {
  const removed = await createAccount(env.server, env.mail, 'Offline Removed', 'student');
  const { inviteCode } = await teacher.api('GET', `/api/courses/${openCourse}`);
  await removed.api('POST', '/api/enrollments/join', { inviteCode });
  const context = await signedInContext(env.browser, env.server, removed.token);
  const page = await openLecture(context);
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByText(/Saved on this device \(/).waitFor({ timeout: 30_000 });
  await teacher.api('DELETE', `/api/courses/${openCourse}/students/${removed.user._id}`);
  await page.goto(`${env.server.baseUrl}/downloads`);
  await page.getByText('"Waves on a string" was removed from this device').waitFor({ timeout: 15_000 });
  await page.getByText('You are no longer in its class, or the lecture was deleted.').waitFor();
  await page.getByText('No lectures saved on this device').waitFor();
  expect(await offlineCaches(page)).toEqual([]);
  await context.close();
});

test('a class with downloads off shows no download button, and says why', async () => {
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${closedCourse}`);
  await page.getByText('Your teacher has turned off downloads for this class.').waitFor();
  expect(await page.getByRole('button', { name: /Download/ }).count()).toBe(0);
  await context.close();

  // The teacher sees the switch off on the class page.
  const asTeacher = await signedInContext(env.browser, env.server, teacher.token);
  const teacherPage = await asTeacher.newPage();
  await teacherPage.goto(`${env.server.baseUrl}/classroom/${closedCourse}`);
  const toggle = teacherPage.getByRole('checkbox', { name: 'Students may download lectures for offline viewing' });
  await toggle.waitFor();
  expect(await toggle.isChecked()).toBe(false);
  await teacherPage.goto(`${env.server.baseUrl}/classroom/${openCourse}`);
  await teacherPage.getByRole('button', { name: 'Download for offline' }).waitFor();
  for (const width of [375, 768, 1024, 1280]) {
    // Loaded at each width, as a person on that screen sees it (the navigation folds on narrow screens at load).
    await teacherPage.setViewportSize({ width, height: 900 });
    await teacherPage.reload();
    await teacherPage.getByRole('button', { name: 'Download for offline' }).waitFor();
    await screenshot(teacherPage, `offline-course-teacher-${width}`);
  }
  await asTeacher.close();
});

test('without a service worker the app offers an MP4, prepared on the server, and the browser saves a real MP4', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 812 });
  await context.addInitScript(() => {
    // A browser without service workers (as some in-app browsers are).
    delete (Navigator.prototype as unknown as { serviceWorker?: unknown }).serviceWorker;
  });
  const page = await openLecture(context);
  const button = page.getByRole('button', { name: 'Download MP4' });
  await button.waitFor();
  const downloading = page.waitForEvent('download', { timeout: 60_000 });
  await button.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Waves on a string.mp4');
  const bytes = readFileSync((await download.path()) as string);
  expect(bytes.length).toBeGreaterThan(10_000);
  expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  await page.getByText(/Downloaded Waves on a string\.mp4/).waitFor();
  await screenshot(page, 'offline-mp4-375');
  await context.close();
});

test("a saved slides lecture shows its slide strip offline; removing it takes the strip's files, not the other lecture's", async () => {
  const clip = await makeSlidesClip(
    clips,
    [
      { seconds: 5, color: 'white', words: 'Photosynthesis' },
      { seconds: 5, color: 'lightyellow', words: 'Chlorophyll' },
      { seconds: 5, color: 'lightblue', words: 'Summary' },
    ],
    { width: 640, height: 360, fps: 15 },
  );
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip.path));
  form.append('courseId', openCourse);
  form.append('nameOfTopic', 'Plants, on slides');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  const slidesLecture: string = uploaded.lectureId;
  await waitForVideo('the slides lecture', () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
  // The slide index is made after the video: saved before it is ready, the strip would be empty.
  let seen = '';
  const slides = await waitUntil(
    'the slide index',
    async () => {
      const answer = await fetch(`${env.server.baseUrl}/api/lectures/${slidesLecture}/slides`, {
        headers: { authorization: `Bearer ${student.token}` },
      });
      const listed = (await answer.json()) as { seconds: number; thumbnail: string }[];
      seen = `${answer.headers.get('x-slide-index')} ${listed.length}`;
      return answer.headers.get('x-slide-index') === 'ready' ? listed : undefined;
    },
    { timeoutMs: 120_000, everyMs: 500, lastSeen: () => seen },
  );
  expect(slides.length).toBeGreaterThanOrEqual(2);

  const context = await signedInContext(env.browser, env.server, student.token, { width: 768, height: 1024 });
  // Two lectures saved: the camera one (no slides) and the slides one.
  const other = await openLecture(context);
  await other.getByRole('button', { name: 'Download for offline' }).click();
  await other.getByText(/Saved on this device \(/).waitFor({ timeout: 30_000 });
  await other.close();
  const page = await openLecture(context, openCourse, slidesLecture);
  await page.getByRole('list', { name: 'Slides' }).waitFor();
  await page.getByRole('button', { name: 'Download for offline' }).click();
  await page.getByText(/Saved on this device \(/).waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, undefined, { timeout: 30_000 });
  const cacheName = `classroom-offline-${student.user._id}`;
  const cached = () =>
    page.evaluate(
      async (name) =>
        (await caches.has(name))
          ? (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname)
          : [],
      cacheName,
    );
  const stripFiles = [`/api/lectures/${slidesLecture}/slides`, ...slides.map((slide) => slide.thumbnail)];
  expect(await cached()).toEqual(expect.arrayContaining(stripFiles));

  await context.setOffline(true);
  await page.reload();
  await page.getByRole('heading', { name: 'Waves Offline', level: 1 }).waitFor();
  expect(
    await page.evaluate(() =>
      fetch('/api/health').then(
        () => 'reached',
        () => 'offline',
      ),
    ),
  ).toBe('offline');
  const strip = page.getByRole('list', { name: 'Slides' });
  await strip.waitFor({ timeout: 15_000 });
  expect(await strip.getByRole('button').count()).toBe(slides.length);
  // Every thumbnail is drawn from the saved copy.
  await page.waitForFunction(
    (count) => {
      const images = [...document.querySelectorAll<HTMLImageElement>('[data-testid="slide-strip"] img')];
      return images.length === count && images.every((image) => image.complete && image.naturalWidth > 0);
    },
    slides.length,
    { timeout: 15_000 },
  );
  // A tap on a slide takes the saved video there.
  const last = slides.at(-1) as { seconds: number };
  await strip.getByRole('button').last().click();
  await page.waitForFunction((at) => (document.querySelector('video')?.currentTime ?? 0) >= at - 0.5, last.seconds, {
    timeout: 30_000,
  });
  await screenshot(page, 'offline-slides-768');

  // Removing the slides lecture takes its strip; the other saved lecture stays whole.
  await context.setOffline(false);
  await page.goto(`${env.server.baseUrl}/downloads`);
  const list = page.getByRole('list', { name: 'Saved lectures' });
  await list.getByText('Plants, on slides').waitFor();
  await page.getByRole('button', { name: 'Remove Plants, on slides' }).click();
  await list.getByText('Plants, on slides').waitFor({ state: 'detached' });
  await list.getByText('Waves on a string').waitFor();
  const left = await cached();
  expect(left.filter((path) => stripFiles.includes(path))).toEqual([]);
  expect(left.some((path) => path.endsWith('/seg_00000.m4s'))).toBe(true);
  await page.getByRole('button', { name: 'Remove Waves on a string' }).click();
  await page.getByText('No lectures saved on this device').waitFor();
  expect(await offlineCaches(page)).toEqual([]);
  await context.close();
}, 240_000);
