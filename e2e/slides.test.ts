import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { makeSlidesClip } from '../src/test/slides-clip';
import { waitForVideo, waitUntil } from '../src/test/wait';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, screenshotDir } from './server';

/**
 * Chapters and the slide strip beside the player: chapters written in a lecture's description, a slides lecture whose
 * index the server makes after transcoding (real ffmpeg and tesseract), the jumps they offer, search hits on slides,
 * and the teacher's controls.
 */
const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-slides-'));
let teacher: Awaited<ReturnType<typeof createAccount>>;
let student: Awaited<ReturnType<typeof createAccount>>;
/** A student who comes back to both lectures part-way through (signed up before the worker is busy with media). */
let returning: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let chaptersLectureId: string;
let slidesLectureId: string;
type Slide = { id: string; seconds: number; text: string; title: string | null; hidden: boolean };
let slides: Slide[];

/** Four slides, 8 s each, with big words to read. */
const SLIDES = [
  { seconds: 8, color: 'white', words: 'Photosynthesis' },
  { seconds: 8, color: 'lightyellow', words: 'Chlorophyll' },
  { seconds: 8, color: 'lightblue', words: 'Mitochondria' },
  { seconds: 8, color: 'lightpink', words: 'Summary' },
];

/** Longer than a phone's bar has room for, and than a 1280 px page's player row once its controls are in. */
const LONG_CHAPTER = 'Worked example: the Krebs cycle step by step';

async function upload(file: string, nameOfTopic: string) {
  const form = new FormData();
  form.append('uploadedFile', Bun.file(file));
  form.append('courseId', courseId);
  form.append('nameOfTopic', nameOfTopic);
  const uploaded = await teacher.api('POST', '/api/upload', form);
  await waitForVideo(nameOfTopic, () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
  return uploaded.lectureId as string;
}

/** The teacher's view of the slide list and the index's state (its header). */
async function slideIndex(lectureId: string) {
  const response = await fetch(`${env.server.baseUrl}/api/lectures/${lectureId}/slides`, {
    headers: { authorization: `Bearer ${teacher.token}` },
  });
  return { state: response.headers.get('x-slide-index'), slides: (await response.json()) as Slide[] };
}

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Sara Slides', 'teacher');
  student = await createAccount(env.server, env.mail, 'Stan Student', 'student');
  returning = await createAccount(env.server, env.mail, 'Rita Returning', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Biology 202' });
  courseId = course._id;
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  await returning.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });

  chaptersLectureId = await upload(
    await makeClip(clips, { width: 640, height: 360, seconds: 40, name: 'camera.mp4' }),
    'Cells, with chapters',
  );
  const described = await teacher.api('PATCH', `/api/lectures/${chaptersLectureId}/update`, {
    description: `What we cover:\n0:00 Introduction\n0:15 ${LONG_CHAPTER}\n0:30 Summary`,
  });
  if (described.chapters?.length !== 3) throw new Error(`setup: chapters not read: ${JSON.stringify(described)}`);

  const clip = await makeSlidesClip(clips, SLIDES, { width: 854, height: 480, fps: 15 });
  slidesLectureId = await upload(clip.path, 'Plants, on slides');
  let seen = '';
  await waitUntil(
    'the slide index to be ready',
    async () => {
      const index = await slideIndex(slidesLectureId);
      seen = `${index.state} ${index.slides.length}`;
      slides = index.slides;
      return index.state === 'ready';
    },
    { timeoutMs: 120_000, everyMs: 500, lastSeen: () => seen },
  );
  if (slides.length < 3) throw new Error(`setup: ${slides.length} slides found`);
}, 300_000);
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function signedIn(token: string, viewport = { width: 1280, height: 800 }) {
  const context = await env.browser.newContext({ viewport });
  await context.addCookies([{ name: 'token', value: token, url: env.server.baseUrl }]);
  return { context, page: await context.newPage() };
}

const videoTime = (page: Page) => page.evaluate(() => document.querySelector('video')?.currentTime ?? -1);
async function waitForTime(page: Page, from: number, to: number) {
  await page.waitForFunction(
    ([low, high]) => {
      const time = document.querySelector('video')?.currentTime ?? -1;
      return time >= (low as number) && time <= (high as number);
    },
    [from, to],
    { timeout: 20_000 },
  );
}

/**
 * The current chapter's name in the player's bar: whole, or cut with an ellipsis with the whole name in its title,
 * wide enough to read, inside the player and clear of every control (the walk-through found 4 px of it at 1280).
 */
async function chapterNameInBar(page: Page) {
  await page.waitForFunction(
    (name) => document.querySelector('[data-testid="player-chapter"]')?.textContent === name,
    LONG_CHAPTER,
  );
  return page.evaluate(() => {
    const player = document.querySelector('[data-testid="video-player"]') as HTMLElement;
    const name = player.querySelector('[data-testid="player-chapter"]') as HTMLElement;
    const box = name.getBoundingClientRect();
    const outer = player.getBoundingClientRect();
    const style = getComputedStyle(name);
    const cut = name.scrollWidth > name.clientWidth;
    const controls = Array.from(
      player.querySelectorAll<HTMLElement>('button, input, select, [role="slider"], [data-testid="player-time"]'),
    ).filter((control) => control.getClientRects().length > 0);
    const overlaps = (other: DOMRect) =>
      box.left < other.right - 0.5 &&
      other.left < box.right - 0.5 &&
      box.top < other.bottom - 0.5 &&
      other.top < box.bottom - 0.5;
    return {
      whole:
        !cut || (style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap' && name.title === name.textContent),
      // A dozen letters or more: "Worked examp…", not "W…".
      readable: box.width >= Math.min(name.scrollWidth, 80),
      inside: box.left >= outer.left && box.right <= outer.right && box.top >= outer.top && box.bottom <= outer.bottom,
      overlapping: controls
        .filter((control) => overlaps(control.getBoundingClientRect()))
        .map((control) => control.getAttribute('aria-label') ?? control.dataset.testid ?? control.tagName),
    };
  });
}
const chapterNameShown = { whole: true, readable: true, inside: true, overlapping: [] };

test('chapters from the description: ticks on the seek bar, a list with the current one marked, a click jumps; the name in the bar at 375, 768, 1024 and 1280', async () => {
  const { context, page } = await signedIn(student.token);
  try {
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${chaptersLectureId}`);
    const list = page.getByRole('list', { name: 'Chapters' });
    await list.waitFor();
    expect(await list.getByRole('button').allInnerTexts()).toEqual([
      expect.stringMatching(/0:00\s+Introduction/),
      expect.stringMatching(/0:15\s+Worked example/),
      expect.stringMatching(/0:30\s+Summary/),
    ]);
    // The player draws a tick for each chapter after the first (the bar itself starts at 0:00).
    await page.getByTestId('seek-marks').waitFor({ state: 'attached' });
    expect(await page.locator('[data-testid="seek-marks"] [data-kind="chapter"]').count()).toBe(2);
    await expect(list.getByRole('button', { name: /Introduction/ }).getAttribute('aria-current')).resolves.toBe('true');

    // The description above the list can push it under the fold: scrolled just into sight first (the player stays in
    // sight), so the scroll measured is the jump's, not the one Playwright makes to reach the button.
    await list
      .getByRole('button', { name: /Worked example/ })
      .evaluate((button) => button.scrollIntoView({ block: 'nearest' }));
    const scrollBefore = await page.evaluate(() => window.scrollY);
    await list.getByRole('button', { name: /Worked example/ }).click();
    await waitForTime(page, 14.5, 19);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="chapter-list"] [aria-current="true"]')?.textContent?.includes('Worked'),
    );
    // The jump moves the player, not the page.
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
    expect({ at: 1280, ...(await chapterNameInBar(page)) }).toEqual({ at: 1280, ...chapterNameShown });
    expect(await seriousA11yFindings(page)).toEqual([]);
    await screenshot(page, 'chapters-1280');
  } finally {
    await context.close();
  }
  // The narrower players: a phone's (the bar's compact row), a tablet's column and a small laptop's.
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
  ]) {
    const { context, page } = await signedIn(student.token, viewport);
    try {
      await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${chaptersLectureId}`);
      await page
        .getByRole('list', { name: 'Chapters' })
        .getByRole('button', { name: /Worked example/ })
        .click();
      await waitForTime(page, 14.5, 19);
      await page.getByTestId('video-player').hover();
      const at = viewport.width;
      expect({ at, ...(await chapterNameInBar(page)) }).toEqual({ at, ...chapterNameShown });
      await page.getByTestId('video-player').screenshot({ path: join(screenshotDir, `chapter-name-${at}.png`) });
    } finally {
      await context.close();
    }
  }
});

test('the slide strip: thumbnails after the index job, a click jumps, ] and [ step, the current one is marked; 375, 768, 1024 and 1280', async () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1024, height: 768 },
    { width: 768, height: 1024 },
    { width: 375, height: 812 },
  ]) {
    const { context, page } = await signedIn(student.token, viewport);
    try {
      await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${slidesLectureId}`);
      const strip = page.getByRole('list', { name: 'Slides' });
      await strip.waitFor();
      const buttons = strip.getByRole('button');
      expect(await buttons.count()).toBe(slides.length);
      // Each button is named by its place, what is on the slide and when (not by its time alone).
      await strip.getByRole('button', { name: /^Slide 2: .*chlorophyll.*, at 0:0\d$/i }).waitFor();
      const loading = await strip
        .locator('img')
        .evaluateAll((images) => images.map((image) => image.getAttribute('loading')));
      expect(loading.every((value) => value === 'lazy')).toBe(true);
      // Thumbnails are served to the student (the cookie), and each sits in a fixed 16:9 box.
      await page.waitForFunction(() => {
        const image = document.querySelector<HTMLImageElement>('[data-testid="slide-strip"] img');
        return image?.complete && image.naturalWidth > 0;
      });
      const box = await buttons.first().locator('span').first().boundingBox();
      expect(Math.abs((box?.width ?? 0) / (box?.height ?? 1) - 16 / 9)).toBeLessThan(0.05);

      const third = slides[2] as Slide;
      await buttons.nth(2).click();
      await waitForTime(page, third.seconds - 0.3, third.seconds + 3);
      const markedCurrent = (index: number) =>
        page.waitForFunction(
          (at) =>
            document
              .querySelectorAll('[data-testid="slide-strip"] button')
              [at as number]?.getAttribute('aria-current') === 'true',
          index,
        );
      await markedCurrent(2);
      expect(await strip.locator('button[aria-current="true"]').count()).toBe(1);
      // A jump brings the player into sight (the player's seek request does). The scroll is smooth, so it is
      // measured once the page has stopped moving, not while it is on its way.
      await page.waitForFunction(
        () =>
          new Promise((resolve) => {
            const before = window.scrollY;
            setTimeout(() => resolve(window.scrollY === before), 300);
          }),
      );
      const player = await page.getByTestId('video-player').boundingBox();
      expect((player?.y ?? -1e4) + (player?.height ?? 0)).toBeGreaterThan(0);
      expect(player?.y ?? 1e4).toBeLessThan(viewport.height);

      // `]` and `[` go to the next and previous slide while the player has focus; the strip follows the video
      // without moving the page.
      await page.getByTestId('video-player').focus();
      // The click's jump scrolls the player into sight smoothly: measured once that scroll has ended.
      await page.waitForFunction(
        () =>
          new Promise((resolve) => {
            const before = window.scrollY;
            setTimeout(() => resolve(window.scrollY === before), 300);
          }),
      );
      const scrollBefore = await page.evaluate(() => window.scrollY);
      await page.keyboard.press(']');
      const fourth = slides[3] as Slide;
      await waitForTime(page, fourth.seconds - 0.3, fourth.seconds + 3);
      await markedCurrent(3);
      await page.keyboard.press('[');
      await waitForTime(page, third.seconds - 0.3, third.seconds + 3);
      await markedCurrent(2);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);

      // The strip is one Tab stop; the arrow keys move along it and Enter jumps.
      await buttons.nth(2).focus();
      await page.keyboard.press('ArrowLeft');
      await expect(buttons.nth(1).evaluate((button) => button === document.activeElement)).resolves.toBe(true);
      expect(await strip.locator('button[tabindex="0"]').count()).toBe(1);
      await page.keyboard.press('Enter');
      const second = slides[1] as Slide;
      await waitForTime(page, second.seconds - 0.3, second.seconds + 3);
      expect(await videoTime(page)).toBeLessThan(third.seconds);

      // Nothing overflows the page sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(await seriousA11yFindings(page)).toEqual([]);
      await screenshot(page, `slides-strip-${viewport.width}`);
    } finally {
      await context.close();
    }
  }
});

test('before Play the resume point is the time everywhere: the marked slide and chapter, and "Add current time"', async () => {
  // Stopped a second into the third slide last time, and 5 s into the second chapter of the other lecture.
  const third = slides[2] as Slide;
  const resumeAt = Math.floor(third.seconds) + 1;
  const clock = `0:${String(resumeAt).padStart(2, '0')}`;
  await returning.api('PUT', `/api/lectures/${slidesLectureId}/progress`, { position: resumeAt, duration: 32 });
  await returning.api('PUT', `/api/lectures/${chaptersLectureId}/progress`, { position: 20, duration: 40 });
  const { context, page } = await signedIn(returning.token);
  try {
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${slidesLectureId}`);
    await page.getByText('Resuming where you stopped.').waitFor();
    await expect(page.getByTestId('player-time').textContent()).resolves.toMatch(new RegExp(`^${clock} /`));
    const strip = page.getByRole('list', { name: 'Slides' });
    await strip.locator('button[aria-current="true"]').waitFor();
    expect(
      await strip
        .getByRole('button')
        .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-current'))),
    ).toEqual(slides.map((_, index) => (index === 2 ? 'true' : null)));
    await page.getByRole('button', { name: `Add current time (${clock})` }).click();
    expect(await page.getByLabel('Add a comment').inputValue()).toBe(`${clock} `);
    // Nothing played to get there.
    expect(await videoTime(page)).toBeLessThan(1);

    await page.getByRole('button', { name: /Cells, with chapters/ }).click();
    const chapters = page.getByRole('list', { name: 'Chapters' });
    await chapters.waitFor();
    await expect(chapters.getByRole('button', { name: /Worked example/ }).getAttribute('aria-current')).resolves.toBe(
      'true',
    );
    expect(await chapters.locator('[aria-current="true"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Add current time (0:20)' }).waitFor();
  } finally {
    await context.close();
  }
});

test('a search for a word on a slide shows the hit with its time and thumbnail, and opens the lecture there', async () => {
  const { context, page } = await signedIn(student.token);
  try {
    await page.goto(`${env.server.baseUrl}/search?q=mitochondria`);
    const hit = page.getByTestId('search-hit').filter({ hasText: 'On a slide' });
    await hit.first().waitFor();
    const mitochondria = slides.find((slide) => /mitochondria/i.test(slide.text)) as Slide;
    await expect(hit.first().innerText()).resolves.toContain(
      `0:${String(Math.floor(mitochondria.seconds)).padStart(2, '0')}`,
    );
    expect(await hit.first().locator('img').count()).toBe(1);
    await hit.first().click();
    await page.waitForURL(new RegExp(`/classroom/${courseId}\\?lecture=${slidesLectureId}`));
    await waitForTime(page, mitochondria.seconds - 0.5, mitochondria.seconds + 3);
  } finally {
    await context.close();
  }
});

test('the teacher hides a wrong mark and titles a slide: the student no longer sees the one and reads the other as a chapter', async () => {
  const { context, page } = await signedIn(teacher.token);
  const hidden = slides[1] as Slide;
  const titled = slides[3] as Slide;
  const at = (slide: Slide) => `0:${String(Math.floor(slide.seconds)).padStart(2, '0')}`;
  try {
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${slidesLectureId}`);
    await page.getByRole('button', { name: 'Actions for Plants, on slides' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Topic' });
    await dialog.getByRole('button', { name: `Hide the slide at ${at(hidden)}` }).click();
    await page.getByText(`Slide at ${at(hidden)} hidden`).waitFor();
    await dialog.getByRole('button', { name: `Show the slide at ${at(hidden)}` }).waitFor();
    await dialog.getByRole('textbox', { name: `Title of the slide at ${at(titled)}` }).fill('Wrapping up');
    // Each slide's Save says which slide it saves (the teacher's list has every slide, in time order).
    await dialog.getByRole('button', { name: `Save slide ${slides.indexOf(titled) + 1}`, exact: true }).click();
    await page.getByText(`Slide at ${at(titled)} titled "Wrapping up"`).waitFor();
    await screenshot(page, 'slides-teacher-controls-1280');
  } finally {
    await context.close();
  }

  const { context: studentContext, page: studentPage } = await signedIn(student.token, { width: 375, height: 812 });
  try {
    await studentPage.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${slidesLectureId}`);
    // On a phone the chapters and the strip are two tabs.
    await studentPage.getByRole('tab', { name: 'Slides' }).click();
    const strip = studentPage.getByRole('list', { name: 'Slides' });
    await strip.waitFor();
    expect(await strip.getByRole('button').count()).toBe(slides.length - 1);
    expect(await strip.getByRole('button', { name: /chlorophyll/i }).count()).toBe(0);
    await studentPage.getByRole('tab', { name: 'Chapters' }).click();
    const chapters = studentPage.getByRole('list', { name: 'Chapters' });
    await chapters.getByRole('button', { name: /Wrapping up/ }).waitFor();
    expect(await studentPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await screenshot(studentPage, 'slides-chapters-tab-375');
  } finally {
    await studentContext.close();
  }
});

test("the chapter editor: times typed as m:ss, problems said in words, the saved list replaces the description's", async () => {
  const { context, page } = await signedIn(teacher.token, { width: 768, height: 1024 });
  try {
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${chaptersLectureId}`);
    await page.getByRole('button', { name: 'Actions for Cells, with chapters' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Topic' });
    await expect(dialog.getByTestId('chapters-source').innerText()).resolves.toContain(
      'timed lines in the description',
    );
    await dialog.getByRole('textbox', { name: 'Chapter 2 start (m:ss or h:mm:ss)' }).fill('0:75');
    await dialog.getByRole('button', { name: 'Save chapters' }).click();
    await expect(dialog.getByRole('alert').innerText()).resolves.toContain(
      'Chapter 2: type the time as minutes and seconds',
    );
    await dialog.getByRole('textbox', { name: 'Chapter 2 start (m:ss or h:mm:ss)' }).fill('0:05');
    await dialog.getByRole('button', { name: 'Save chapters' }).click();
    await expect(dialog.getByRole('alert').innerText()).resolves.toContain('at least 10 seconds long');
    await dialog.getByRole('textbox', { name: 'Chapter 2 start (m:ss or h:mm:ss)' }).fill('0:20');
    await dialog.getByRole('textbox', { name: 'Chapter 2 title' }).fill('Two examples');
    await dialog.getByRole('button', { name: 'Remove chapter 3' }).click();
    await dialog.getByRole('button', { name: 'Save chapters' }).click();
    await page.getByText('Chapters saved: 2').waitFor();
    await expect(dialog.getByTestId('chapters-source').innerText()).resolves.toContain('were set here');
    await screenshot(page, 'chapters-editor-768');
  } finally {
    await context.close();
  }
  const saved = await student.api('GET', `/api/lectures/${chaptersLectureId}/chapters`);
  expect(saved.chapters).toEqual([
    { seconds: 0, title: 'Introduction' },
    { seconds: 20, title: 'Two examples' },
  ]);
});
