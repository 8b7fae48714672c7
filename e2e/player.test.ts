import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { waitForVideo } from '../src/test/wait';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, screenshotDir } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-player-'));
let student: Awaited<ReturnType<typeof createAccount>>;
let teacher: Awaited<ReturnType<typeof createAccount>>;
let inviteCode: string;
let courseId: string;
let landscape: string;
let portrait: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Player Teacher', 'teacher');
  student = await createAccount(env.server, env.mail, 'Player Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Screens 101' });
  courseId = course._id;
  inviteCode = course.inviteCode;
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const add = async (name: string, width: number, height: number) => {
    const form = new FormData();
    form.append('uploadedFile', Bun.file(await makeClip(clips, { width, height, seconds: 24, name: `${name}.mp4` })));
    form.append('courseId', courseId);
    form.append('nameOfTopic', name);
    const uploaded = await teacher.api('POST', '/api/upload', form);
    await waitForVideo(name, () => teacher.api('GET', `/api/videos/${uploaded.videoId}`));
    return uploaded.lectureId as string;
  };
  landscape = await add('Landscape lecture', 640, 360);
  portrait = await add('Portrait lecture', 360, 640);
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function open(
  viewport: { width: number; height: number },
  lectureId: string | null,
  touch = false,
  token = student.token,
) {
  const context = await env.browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
  await context.addCookies([{ name: 'token', value: token, url: env.server.baseUrl }]);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}${lectureId ? `?lecture=${lectureId}` : ''}`);
  const player = page.getByTestId('video-player');
  await player.waitFor();
  return { context, page, player };
}

async function expectInside(player: Locator, control: Locator, what: string) {
  const outer = await player.boundingBox();
  const inner = await control.boundingBox();
  expect({ what, inside: !!outer && !!inner }).toEqual({ what, inside: true });
  if (!outer || !inner) return;
  const inside =
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5;
  expect({ what, inside }).toEqual({ what, inside: true });
}

const state = (page: Page) =>
  page.evaluate(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    return { time: video.currentTime, paused: video.paused, rate: video.playbackRate };
  });

test('after Play (a click, or Enter on the big button reached by Tab) the keys work at once, no click on the picture', async () => {
  const { context, page, player } = await open({ width: 1280, height: 800 }, landscape);
  const inPlayer = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="video-player"]'));
  const keysWork = async () => {
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, {
      timeout: 20_000,
    });
    expect(await inPlayer()).toBe(true);
    const before = (await state(page)).time;
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((from) => (document.querySelector('video')?.currentTime ?? 0) >= from + 4, before);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('video')?.paused === true);
    await page.keyboard.press('m');
    await page.waitForFunction(() => document.querySelector('video')?.muted === true);
    await page.keyboard.press('m');
    await page.waitForFunction(() => document.querySelector('video')?.muted === false);
  };

  await player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await keysWork();

  // A keyboard user: Tab from the top of the page to the big Play button, then Enter.
  await page.reload();
  await player.waitFor();
  const bigPlay = player.getByRole('button', { name: 'Play', exact: true }).first();
  let reached = false;
  for (let stop = 0; stop < 60 && !reached; stop++) {
    await page.keyboard.press('Tab');
    reached = await bigPlay.evaluate((button) => button === document.activeElement);
  }
  expect(reached).toBe(true);
  await page.keyboard.press('Enter');
  await keysWork();
  await context.close();
});

test('every control sits inside the player at 375, 768, 1024 and 1280 px; narrow players use one settings menu', async () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 768, height: 1024 },
    { width: 1024, height: 768 },
    { width: 1280, height: 800 },
  ]) {
    const { context, page, player } = await open(viewport, landscape);
    const at = `${viewport.width}px`;
    for (const name of ['Play', 'Mute', 'Fullscreen']) {
      await expectInside(player, player.getByRole('button', { name, exact: true }).last(), `${name} at ${at}`);
    }
    if ((await player.getAttribute('data-compact')) === 'true') {
      const playButtons = player.getByRole('button', { name: 'Play', exact: true });
      expect(await playButtons.count()).toBe(2);
      await player.getByRole('button', { name: 'Settings' }).click();
      for (const name of ['Playback speed', 'Quality']) {
        await expectInside(player, player.getByLabel(name, { exact: true }), `${name} (menu) at ${at}`);
      }
      // An aligned form: the selects one above the other, as wide as each other, above the whole bar (seek bar
      // included); the big Play button in the middle is hidden while the menu is open (the bar's Play stays).
      const speedBox = (await player.getByLabel('Playback speed', { exact: true }).boundingBox())!;
      const qualityBox = (await player.getByLabel('Quality', { exact: true }).boundingBox())!;
      expect({ at, x: Math.round(qualityBox.x), width: Math.round(qualityBox.width) }).toEqual({
        at,
        x: Math.round(speedBox.x),
        width: Math.round(speedBox.width),
      });
      expect(qualityBox.y).toBeGreaterThanOrEqual(speedBox.y + speedBox.height);
      const seekTop = (await player.getByRole('slider', { name: 'Seek' }).boundingBox())!.y;
      expect({ at, menuAboveSeek: qualityBox.y + qualityBox.height <= seekTop }).toEqual({ at, menuAboveSeek: true });
      expect(await playButtons.count()).toBe(1);
      await page.keyboard.press('Escape');
      await expect(player.getByLabel('Playback speed', { exact: true }).count()).resolves.toBe(0);
      expect(await playButtons.count()).toBe(2);
    } else {
      for (const name of ['Playback speed', 'Quality']) {
        await expectInside(player, player.getByLabel(name, { exact: true }), `${name} at ${at}`);
      }
    }
    await context.close();
  }
});

test('on a touch screen a tap shows or hides the controls and never pauses; a double tap seeks 10 s', async () => {
  const { context, page, player } = await open({ width: 375, height: 812 }, landscape, true);
  await player.getByRole('button', { name: 'Play', exact: true }).first().tap();
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1);
  const video = page.locator('video');
  const box = (await video.boundingBox())!;
  await video.tap({ position: { x: box.width / 2, y: box.height / 3 } });
  await page.waitForTimeout(600);
  expect((await state(page)).paused).toBe(false);
  await video.tap({ position: { x: box.width / 2, y: box.height / 3 } });
  await page.waitForTimeout(600);
  expect((await state(page)).paused).toBe(false);

  const before = (await state(page)).time;
  await video.tap({ position: { x: box.width * 0.85, y: box.height / 3 } });
  await page.waitForTimeout(100);
  await video.tap({ position: { x: box.width * 0.85, y: box.height / 3 } });
  await page.waitForFunction((from) => (document.querySelector('video')?.currentTime ?? 0) > from + 8, before);
  expect((await state(page)).paused).toBe(false);
  await context.close();
});

test('a portrait lecture is shown at its own aspect, not boxed into 16:9', async () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    const { context, player } = await open(viewport, portrait);
    const box = (await player.boundingBox())!;
    expect({ viewport: viewport.width, ratio: Math.round((box.height / box.width) * 100) / 100 }).toEqual({
      viewport: viewport.width,
      ratio: Math.round((640 / 360) * 100) / 100,
    });
    await context.close();
  }
});

test('speed and quality are remembered on this device', async () => {
  const first = await open({ width: 1280, height: 800 }, landscape);
  await first.player.getByLabel('Playback speed', { exact: true }).selectOption('1.5');
  await first.player.getByLabel('Quality', { exact: true }).selectOption({ label: '240p' });
  await first.page.reload();
  await first.player.waitFor();
  expect(await first.player.getByLabel('Playback speed', { exact: true }).inputValue()).toBe('1.5');
  await first.player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await first.page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1);
  expect((await state(first.page)).rate).toBe(1.5);
  expect(await first.player.getByLabel('Quality', { exact: true }).inputValue()).toBe('0');
  await first.page.waitForFunction(() => document.querySelector('video')?.videoHeight === 240);
  await first.context.close();
});

test('segments cut by the network: the student reads what happened, and playback resumes by itself', async () => {
  const { context, page, player } = await open({ width: 1280, height: 800 }, landscape);
  await page.evaluate(() => {
    (window as unknown as { notReloaded: boolean }).notReloaded = true;
  });
  await page.route('**/*.m4s', (route) => route.abort('internetdisconnected'));
  await player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await player.getByText('The connection dropped. Trying again…').first().waitFor({ timeout: 30_000 });
  await page.unroute('**/*.m4s');
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, {
    timeout: 30_000,
  });
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await expect(player.getByRole('alert').count()).resolves.toBe(0);
  await context.close();
});

test('continue watching: the class opens where the student stopped; opening a class alone starts nothing', async () => {
  const newcomer = await createAccount(env.server, env.mail, 'Newcomer Student', 'student');
  await newcomer.api('POST', '/api/enrollments/join', { inviteCode });
  // Opened and left without playing: not "started" anywhere.
  const glance = await open({ width: 1280, height: 800 }, null, false, newcomer.token);
  await glance.page.getByRole('heading', { name: 'Landscape lecture' }).waitFor();
  await glance.context.close();
  expect(await newcomer.api('GET', '/api/history')).toEqual([]);

  // It opens on the first lecture not finished; the student watches a few seconds of the second one, then leaves.
  const first = await open({ width: 1280, height: 800 }, null, false, newcomer.token);
  await first.page.getByRole('heading', { name: 'Landscape lecture' }).waitFor();
  await first.page.getByRole('button', { name: /Portrait lecture/ }).click();
  await first.player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await first.page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 5, undefined, {
    timeout: 30_000,
  });
  await first.page.keyboard.press('Space');
  await first.page.waitForTimeout(500);
  await first.context.close();

  const back = await open({ width: 1280, height: 800 }, null, false, newcomer.token);
  await back.page.getByRole('heading', { name: 'Portrait lecture' }).waitFor();
  const bar = back.page.getByRole('img', { name: /^Watched \d+%$/ });
  await bar.waitFor();
  await back.player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await back.page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 4.5, undefined, {
    timeout: 30_000,
  });
  await back.context.close();
  const history = (await newcomer.api('GET', '/api/history')) as { nameOfTopic?: string }[];
  expect(history).toHaveLength(1);
});

test("the teacher's topic menu is never clipped; Escape and a click outside close it, focus goes back", async () => {
  const { context, page } = await open({ width: 1280, height: 800 }, landscape, false, teacher.token);
  const trigger = page.getByRole('button', { name: 'Actions for Portrait lecture' });
  await trigger.click();
  const menu = page.getByRole('menu', { name: 'Actions for Portrait lecture' });
  await menu.waitFor();
  const box = (await menu.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  // The first item has focus; arrows move; Escape closes and gives focus back.
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
  await page.keyboard.press('ArrowDown');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
  await page.keyboard.press('Escape');
  await expect(menu.count()).resolves.toBe(0);
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
    'Actions for Portrait lecture',
  );
  await trigger.click();
  await menu.waitFor();
  await page.mouse.click(5, 400);
  await expect(menu.count()).resolves.toBe(0);
  await context.close();
});

test('a skip link is the first Tab stop and lands in the main content; the sign-in page has a main landmark', async () => {
  const { context, page } = await open({ width: 1280, height: 800 }, landscape);
  await page.getByRole('heading', { name: 'Landscape lecture' }).waitFor();
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
  await context.close();
  const anonymous = await env.browser.newPage();
  await anonymous.goto(`${env.server.baseUrl}/login`);
  await anonymous.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  expect(await anonymous.getByRole('main').count()).toBe(1);
  await anonymous.close();
});

test('when a lecture ends, the next one is offered with a countdown that can be cancelled, then plays by itself', async () => {
  const { context, page, player } = await open({ width: 1280, height: 800 }, landscape);
  const playToTheEnd = async () => {
    await player.getByRole('button', { name: 'Play', exact: true }).first().click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5);
    await page.evaluate(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.currentTime = video.duration - 0.5;
    });
  };
  await playToTheEnd();
  const upNext = page.getByRole('status').filter({ hasText: 'Up next: Portrait lecture' });
  await upNext.waitFor({ timeout: 15_000 });
  await upNext.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForTimeout(6000);
  await expect(page.getByRole('heading', { name: 'Landscape lecture' }).count()).resolves.toBe(1);

  await page.getByRole('button', { name: 'Replay', exact: true }).first().click();
  await page.evaluate(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    video.currentTime = video.duration - 0.5;
  });
  await upNext.waitFor({ timeout: 15_000 });
  await page.getByRole('heading', { name: 'Portrait lecture' }).waitFor({ timeout: 15_000 });
  // The address follows what plays: a reload opens the lecture playing now, not the one before.
  expect(new URL(page.url()).searchParams.get('lecture')).toBe(portrait);
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, {
    timeout: 20_000,
  });
  await context.close();
});

test('times in comments take the player there; "Add current time" writes the position; deleting a comment asks first', async () => {
  const { context, page, player } = await open({ width: 1280, height: 800 }, landscape);
  await player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 2.2);
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: /^Add current time \(0:0[2-9]\)$/ }).click();
  const field = page.getByLabel('Add a comment');
  expect(await field.inputValue()).toMatch(/^0:0[2-9] $/);
  await field.fill('The key idea is at 0:15, worth a second look');
  await page.getByRole('button', { name: 'Add Comment' }).click();
  const link = page.getByRole('button', { name: 'Play from 0:15' });
  await link.waitFor();
  expect(await page.getByText('just now').count()).toBeGreaterThan(0);
  await link.click();
  await page.waitForFunction(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    return video.currentTime >= 15 && video.currentTime < 18 && !video.paused;
  });

  await page.getByRole('button', { name: 'Delete comment' }).first().click();
  await page.getByText('Delete this comment?').waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(link.count()).resolves.toBe(1);
  await page.getByRole('button', { name: 'Delete comment' }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(
    page.getByRole('button', { name: 'Play from 0:15' }).waitFor({ state: 'detached' }),
  ).resolves.toBeUndefined();
  await context.close();
});

test('notes save themselves a moment after typing stops, and when the student moves on at once', async () => {
  const { context, page } = await open({ width: 1280, height: 800 }, landscape);
  const notes = page.getByRole('textbox', { name: 'Course notes' });
  await notes.fill('Waves carry energy, not matter.');
  await page.getByText('Saved. Only you can see these').waitFor({ timeout: 10_000 });
  expect((await student.api('GET', `/api/enrollments/${courseId}/notes`)).notes).toBe(
    'Waves carry energy, not matter.',
  );

  // Typed and gone at once (another page of the app): the last words are saved anyway.
  await notes.fill('Waves carry energy, not matter. Check the 0:15 example.');
  await page.getByRole('link', { name: 'History' }).first().click();
  await page.waitForURL('**/history');
  await page.waitForTimeout(1000);
  expect((await student.api('GET', `/api/enrollments/${courseId}/notes`)).notes).toBe(
    'Waves carry energy, not matter. Check the 0:15 example.',
  );
  await context.close();
});

test('captions: the teacher adds an SRT, a student turns on CC and reads each cue at its time; the choice is remembered', async () => {
  const srt = (text: string) => ({ name: 'waves.srt', mimeType: 'application/x-subrip', buffer: Buffer.from(text) });
  const asTeacher = await open({ width: 1280, height: 800 }, landscape, false, teacher.token);
  await asTeacher.page.getByRole('button', { name: 'Actions for Landscape lecture' }).click();
  await asTeacher.page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = asTeacher.page.getByRole('dialog');
  await dialog.getByText('No captions yet.').waitFor();
  const fileField = dialog.getByLabel('Caption file (.vtt or .srt)');
  // A broken file is refused with the line that is wrong.
  await fileField.setInputFiles(srt('1\n00:00:01,000 --> 00:00:0x,000\nWelcome\n'));
  await dialog.getByLabel('Language code').fill('en');
  expect(await dialog.getByLabel('Label students see').inputValue()).toBe('English');
  await dialog.getByRole('button', { name: 'Add captions' }).click();
  await dialog.getByText(/^Line 2: /).waitFor();
  await fileField.setInputFiles(
    srt(
      '1\n00:00:01,000 --> 00:00:03,000\nWelcome to waves.\n\n2\n00:00:04,000 --> 00:00:06,000\nEnergy moves, <i>matter</i> stays.\n',
    ),
  );
  await dialog.getByRole('button', { name: 'Add captions' }).click();
  await dialog.getByText('English (en)').waitFor();
  expect(await fileField.inputValue()).toBe('');
  await asTeacher.context.close();

  // A student who has not watched it yet (it starts at 0:00).
  const reader = await createAccount(env.server, env.mail, 'Caption Reader', 'student');
  await reader.api('POST', '/api/enrollments/join', { inviteCode });
  const { context, page, player } = await open({ width: 1280, height: 800 }, landscape, false, reader.token);
  const cc = player.getByRole('button', { name: 'Captions' });
  expect(await cc.getAttribute('aria-pressed')).toBe('false');
  await cc.click();
  expect(await cc.getAttribute('aria-pressed')).toBe('true');
  await player.getByRole('button', { name: 'Play', exact: true }).first().click();
  const captionAt = async (text: string) => {
    await player.getByTestId('captions').getByText(text, { exact: true }).waitFor({ timeout: 15_000 });
    return (await state(page)).time;
  };
  const first = await captionAt('Welcome to waves.');
  expect(first).toBeGreaterThanOrEqual(0.9);
  expect(first).toBeLessThanOrEqual(3.1);
  const second = await captionAt('Energy moves, matter stays.');
  expect(second).toBeGreaterThanOrEqual(3.9);
  expect(second).toBeLessThanOrEqual(6.1);
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 6.5);
  await expect(player.getByTestId('captions').count()).resolves.toBe(0);

  // Remembered on this device; CC again turns them off.
  await page.reload();
  await player.waitFor();
  expect(await cc.getAttribute('aria-pressed')).toBe('true');
  await cc.click();
  expect(await cc.getAttribute('aria-pressed')).toBe('false');
  await context.close();
});

test('captions sit above the seek bar while the controls show, and near the bottom when they hide (375 and 1280 px)', async () => {
  // After the captions test above: the landscape lecture has English captions (0:01–0:03, 0:04–0:06).
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    const at = `${viewport.width}px`;
    const viewer = await createAccount(env.server, env.mail, `Caption Viewer ${viewport.width}`, 'student');
    await viewer.api('POST', '/api/enrollments/join', { inviteCode });
    const { context, page, player } = await open(viewport, landscape, false, viewer.token);
    await player.getByRole('button', { name: 'Captions' }).click();
    await player.getByRole('button', { name: 'Play', exact: true }).first().click();
    const captions = player.getByTestId('captions');
    await captions.getByText('Welcome to waves.', { exact: true }).waitFor({ timeout: 15_000 });
    const box = (await player.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 3);
    const seek = player.getByRole('slider', { name: 'Seek' });
    const gap = async () => {
      const caption = (await captions.boundingBox())!;
      const seekBox = (await seek.boundingBox())!;
      return seekBox.y - (caption.y + caption.height);
    };
    expect({ at, captionAboveSeek: (await gap()) >= 0 }).toEqual({ at, captionAboveSeek: true });
    // The controls hide while it plays; a jump made without them (no mouse) shows the next cue low again.
    await page.waitForFunction(
      () => document.querySelector('.player-seek')?.parentElement?.classList.contains('opacity-0'),
      undefined,
      { timeout: 10_000 },
    );
    await page.evaluate(() => {
      (document.querySelector('video') as HTMLVideoElement).currentTime = 4.2;
    });
    await captions.getByText('Energy moves, matter stays.', { exact: true }).waitFor({ timeout: 15_000 });
    // 12 px from the player's bottom once its short slide down is over.
    const nearBottom = await page
      .waitForFunction(
        () => {
          const player = document.querySelector('[data-testid="video-player"]')?.getBoundingClientRect();
          const caption = document.querySelector('[data-testid="captions"]')?.getBoundingClientRect();
          return !!player && !!caption && Math.abs(player.bottom - caption.bottom - 12) <= 1;
        },
        undefined,
        { timeout: 3000 },
      )
      .then(() => true)
      .catch(() => false);
    expect({ at, nearBottom }).toEqual({ at, nearBottom: true });
    await context.close();
  }
});

test("a comment's time clicked before Play plays from that time, not from the saved resume point", async () => {
  const returning = await createAccount(env.server, env.mail, 'Returning Student', 'student');
  await returning.api('POST', '/api/enrollments/join', { inviteCode });
  // Stopped at 0:16 last time; a classmate points at 0:04.
  await returning.api('PUT', `/api/lectures/${landscape}/progress`, { position: 16, duration: 24 });
  await returning.api('POST', `/api/lectures/${landscape}/comments`, { text: 'Look at 0:04 again' });
  const { context, page } = await open({ width: 1280, height: 800 }, landscape, false, returning.token);
  await page.getByText('Resuming where you stopped.').waitFor();
  await page.getByRole('button', { name: 'Play from 0:04' }).click();
  await page.waitForFunction(() => {
    const video = document.querySelector('video') as HTMLVideoElement;
    return !video.paused && video.currentTime > 4.2;
  });
  // It started at 0:04 and stayed there: the resume point (0:16) did not take over once the stream loaded.
  await page.waitForTimeout(1500);
  const { time } = await state(page);
  expect(time).toBeGreaterThanOrEqual(4);
  expect(time).toBeLessThan(9);
  await context.close();
});

test('the seek bar and volume slider are at least 24 px tall to hit, 44 px on a touch screen; the track stays thin', async () => {
  const measure = async (touch: boolean) => {
    const { context, player } = await open({ width: 1024, height: 768 }, landscape, touch);
    const seek = (await player.getByRole('slider', { name: 'Seek' }).boundingBox())!;
    const volume = (await player.getByLabel('Volume', { exact: true }).boundingBox())!;
    const track = await player
      .getByRole('slider', { name: 'Seek' })
      .evaluate((element) => (element.firstElementChild as HTMLElement).getBoundingClientRect().height);
    await context.close();
    return { seek: seek.height, volume: volume.height, track };
  };
  const mouse = await measure(false);
  expect(mouse.seek).toBeGreaterThanOrEqual(24);
  expect(mouse.volume).toBeGreaterThanOrEqual(24);
  expect(mouse.track).toBe(4);
  const touch = await measure(true);
  expect(touch.seek).toBeGreaterThanOrEqual(44);
  expect(touch.volume).toBeGreaterThanOrEqual(44);
  expect(touch.track).toBe(4);
});

test('chapters are ticks on the seek bar, the current one shows beside the time, ] and [ jump between them (375 and 1280 px)', async () => {
  const middle = 'The second part of this lecture, with a long name';
  const set = await teacher.api('PUT', `/api/lectures/${landscape}/chapters`, {
    chapters: [
      { seconds: 0, title: 'Opening' },
      { seconds: 12, title: middle },
    ],
  });
  expect(set.source).toBe('editor');
  // The earlier tests left this student part-way through the lecture: start it from the beginning, where the first
  // chapter is current (a resume point past a chapter would make `]` find none).
  await student.api('PUT', `/api/lectures/${landscape}/progress`, { position: 0, duration: 24 });
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    const at = `${viewport.width}px`;
    const { context, page, player } = await open(viewport, landscape);
    const seek = player.getByRole('slider', { name: 'Seek' });
    const ticks = player.getByTestId('seek-marks').locator('[data-kind="chapter"]');
    await ticks.first().waitFor();
    // The bar's start has no tick of its own: one tick, at the second chapter, inside the seek bar.
    expect({ at, ticks: await ticks.count() }).toEqual({ at, ticks: 1 });
    const seekBox = (await seek.boundingBox())!;
    const tickBox = (await ticks.first().boundingBox())!;
    expect({ at, insideSeek: tickBox.x > seekBox.x && tickBox.x + tickBox.width < seekBox.x + seekBox.width }).toEqual({
      at,
      insideSeek: true,
    });
    const chapter = player.getByTestId('player-chapter');
    expect(await chapter.textContent()).toBe('Opening');
    expect(await seek.getAttribute('aria-valuetext')).toBe('0:00 of 0:24, Opening');

    await player.getByRole('button', { name: 'Play', exact: true }).first().click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1);
    // Play moved focus into the player, as for a person: the keys work without a click on the picture.
    await page.keyboard.press(']');
    await page.waitForFunction(() => {
      const time = document.querySelector('video')?.currentTime ?? 0;
      return time >= 12 && time < 16;
    });
    await page.waitForFunction(
      (name) => document.querySelector('[data-testid="player-chapter"]')?.textContent === name,
      middle,
    );
    expect(await player.getByTestId('player-announcement').textContent()).toBe(`${middle} (2 of 2), 0:12`);
    // A long name is cut short inside the bar, never pushing a control out of the player.
    const chapterBox = (await chapter.boundingBox())!;
    const playerBox = (await player.boundingBox())!;
    expect({ at, fits: chapterBox.x + chapterBox.width <= playerBox.x + playerBox.width }).toEqual({ at, fits: true });
    await expectInside(player, player.getByRole('button', { name: 'Fullscreen' }), `Fullscreen at ${at}`);
    // It plays on from the chapter; [ goes back to the one before.
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 13);
    await page.keyboard.press('[');
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 99) < 4);
    expect(await player.getByTestId('player-announcement').textContent()).toBe('Opening (1 of 2), 0:00');
    expect((await state(page)).paused).toBe(false);
    await context.close();
  }
  await teacher.api('PUT', `/api/lectures/${landscape}/chapters`, { chapters: null });
});

test('an address naming a removed lecture says so; the playlist is still there and offers the way on', async () => {
  const gone = await teacher.api('POST', '/api/lectures', { courseId, nameOfTopic: 'Lecture soon removed' });
  await teacher.api('DELETE', `/api/lectures/${gone._id}`);
  const { context, page } = await (async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'token', value: student.token, url: env.server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}?lecture=${gone._id}`);
    return { context, page };
  })();
  const notice = page.getByRole('region', { name: 'This lecture was removed' });
  await notice.waitFor();
  // Nothing else opened in its place, silently: no player, and no lecture marked in the playlist.
  expect(await page.getByTestId('video-player').count()).toBe(0);
  const playlist = page.getByRole('region', { name: 'Course Playlist' });
  expect(await playlist.getByRole('button', { name: /Landscape lecture/ }).count()).toBe(1);
  expect(await playlist.locator('[aria-current="true"]').count()).toBe(0);
  expect(await seriousA11yFindings(page)).toEqual([]);
  await screenshot(page, 'player-removed-lecture-1280');
  // The way on: the lecture the student would continue with, and the address follows.
  await notice.getByRole('button', { name: /^Watch / }).click();
  await page.getByTestId('video-player').waitFor();
  expect(new URL(page.url()).searchParams.get('lecture')).not.toBe(gone._id);
  await context.close();
});

test('at 1024 px the Course Playlist comes straight under the player, not screens below it', async () => {
  const { context, page, player } = await open({ width: 1024, height: 768 }, landscape);
  const playlist = page.getByRole('heading', { name: 'Course Playlist' });
  await playlist.waitFor();
  const playerBox = (await player.boundingBox())!;
  const playlistBox = (await playlist.boundingBox())!;
  // Under the player's title and view count (about 100 px), within the first screen and a bit when scrolled to the player.
  expect(playlistBox.y).toBeGreaterThan(playerBox.y + playerBox.height);
  expect(playlistBox.y - (playerBox.y + playerBox.height)).toBeLessThan(200);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await screenshot(page, 'course-page-1024');
  await context.close();
});

test('on a 375 px phone with two caption languages every row of the settings menu shows whole, inside the player', async () => {
  const captions = async (language: string, label: string, words: string) => {
    const form = new FormData();
    form.append(
      'file',
      new File([`WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n${words}\n`], `${language}.vtt`, { type: 'text/vtt' }),
    );
    form.append('language', language);
    form.append('label', label);
    await teacher.api('POST', `/api/lectures/${landscape}/captions`, form);
  };
  await captions('fr', 'Français', 'Bienvenue.');
  await captions('es', 'Español', 'Bienvenidos.');
  const { context, page, player } = await open({ width: 375, height: 812 }, landscape);
  // Quality is listed once the stream's levels are known: played a moment, then paused.
  await player.getByRole('button', { name: 'Play', exact: true }).first().click();
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5);
  await player.getByRole('button', { name: 'Pause', exact: true }).click();
  await player.getByRole('button', { name: 'Settings' }).click();
  const playerBox = (await player.boundingBox())!;
  for (const name of ['Playback speed', 'Quality', 'Captions language']) {
    const row = player.getByLabel(name, { exact: true });
    await row.waitFor();
    await expectInside(player, row, `${name} at 375px`);
    const box = (await row.boundingBox())!;
    expect({ name, inViewport: box.y >= 0 && box.y + box.height <= 812 }).toEqual({ name, inViewport: true });
    // Not cut by the menu's own scroll either: the row's middle is what a tap there reaches.
    const hit = await row.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2) === element;
    });
    expect({ name, hit }).toEqual({ name, hit: true });
  }
  expect(playerBox.height).toBeLessThan(250);
  await player.screenshot({ path: join(screenshotDir, 'player-settings-375-two-captions.png') });
  await page.keyboard.press('Escape');
  await expect(player.getByLabel('Playback speed', { exact: true }).count()).resolves.toBe(0);
  await context.close();
});
