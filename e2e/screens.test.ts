import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';

type Box = { x: number; y: number; width: number; height: number };

import { makeClip } from '../src/test/fixtures';
import { TEST_PASSWORD } from '../src/test/harness';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

/**
 * The screens the data layer touched, at phone, tablet, laptop and desktop widths, in their loaded, empty
 * and failed states: each fits without horizontal scrolling and has no critical or serious axe finding.
 */
const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-screens-'));
const WIDTHS = [375, 768, 1024, 1280];
let teacher: Awaited<ReturnType<typeof createAccount>>;
let student: Awaited<ReturnType<typeof createAccount>>;
let newcomer: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Grace Hopper', 'teacher');
  student = await createAccount(env.server, env.mail, 'Ada Student', 'student');
  newcomer = await createAccount(env.server, env.mail, 'Nina Newcomer', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Compilers', semester: 3 });
  courseId = course._id;
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 4 })), 'a.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  await teacher.api('POST', '/api/lectures', { courseId, nameOfTopic: 'Parsing', videoLink: uploaded.masterPlaylist });
  await student.api('PATCH', `/api/enrollments/${courseId}/notes`, { notes: 'LL(1) vs LR(1)' });
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

async function check(page: Page, name: string, width: number) {
  expect({
    name,
    width,
    fits: await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
  }).toEqual({
    name,
    width,
    fits: true,
  });
  expect({ name, width, findings: await seriousA11yFindings(page) }).toEqual({ name, width, findings: [] });
  await screenshot(page, `${name}-${width}`);
}

const failing = (page: Page, pattern: RegExp) =>
  page.route(pattern, (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Down for a moment."}' }),
  );

test('class list, course page and history: loaded, empty and failed, at every width', async () => {
  for (const width of WIDTHS) {
    const viewport = { width, height: 900 };
    const asStudent = await signedInContext(env.browser, env.server, student.token, viewport);
    const page = await asStudent.newPage();
    await page.goto(`${env.server.baseUrl}/classroom`);
    await page
      .getByRole('link', { name: /Compilers/ })
      .first()
      .waitFor();
    await check(page, 'classroom-student', width);
    // The spec's grid: one column on phones, two on tablets, four on large screens.
    const columns = await page
      .getByTestId('class-grid')
      .evaluate((grid) => getComputedStyle(grid).gridTemplateColumns.split(' ').length);
    expect({ width, columns }).toEqual({ width, columns: width >= 1280 ? 4 : width >= 768 ? 2 : 1 });
    // Each page names itself in the tab (WCAG 2.4.2); the class page its class and lecture.
    expect(await page.title()).toBe('Your classes · Classroom');
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    await page.getByRole('textbox', { name: 'Course notes' }).waitFor();
    await page.getByRole('heading', { name: 'Parsing' }).waitFor();
    await check(page, 'course-student', width);
    await page.waitForFunction(() => document.title === 'Compilers – Parsing · Classroom');
    await asStudent.close();

    const asTeacher = await signedInContext(env.browser, env.server, teacher.token, viewport);
    const teacherPage = await asTeacher.newPage();
    await teacherPage.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    await teacherPage.getByRole('heading', { name: 'Student progress' }).waitFor();
    await check(teacherPage, 'course-teacher', width);
    await teacherPage.goto(`${env.server.baseUrl}/settings`);
    await teacherPage.getByRole('tab', { name: 'Security' }).click();
    await teacherPage.getByRole('heading', { name: 'Delete my account' }).waitFor();
    await check(teacherPage, 'settings-security', width);
    await asTeacher.close();

    const asNewcomer = await signedInContext(env.browser, env.server, newcomer.token, viewport);
    const newPage = await asNewcomer.newPage();
    await newPage.goto(`${env.server.baseUrl}/classroom`);
    await newPage.getByText('No classes yet').waitFor();
    await check(newPage, 'classroom-empty', width);
    await newPage.goto(`${env.server.baseUrl}/history`);
    await newPage.getByText('Nothing here yet').waitFor();
    await check(newPage, 'history-empty', width);
    expect(await newPage.title()).toBe('History · Classroom');
    await failing(newPage, /\/api\/(courses|history)$/);
    await newPage.goto(`${env.server.baseUrl}/classroom`);
    await newPage.getByText('Could not load your classes.').waitFor();
    await check(newPage, 'classroom-failed', width);
    await asNewcomer.close();

    const failed = await signedInContext(env.browser, env.server, student.token, viewport);
    const failedPage = await failed.newPage();
    await failing(failedPage, /\/api\/(enrollments\/[^/]+\/notes|lectures\/[^/]+\/comments)$/);
    await failedPage.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    await failedPage.getByText('Could not load your notes.').waitFor();
    await failedPage.getByText('Could not load comments.').waitFor();
    await check(failedPage, 'course-notes-failed', width);
    await failed.close();
  }
}, 180_000);

test('a screen whose code cannot be downloaded says so with Retry, never a white page, and loads once it can', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 812 });
  const page = await context.newPage();
  try {
    await page.goto(`${env.server.baseUrl}/classroom`);
    const card = page.getByRole('link', { name: /Compilers/ }).first();
    await card.waitFor();
    // Offline before the class page was ever opened: its code is not in the browser.
    await context.setOffline(true);
    await card.click();
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load this page.' });
    await alert.getByText('You are offline. It will load by itself once you are back online.').waitFor();
    // The shell stays, so the person can go elsewhere.
    await page.getByRole('link', { name: 'History' }).first().waitFor();
    await check(page, 'page-code-offline', 375);
    await context.setOffline(false);
    // Back online: the page loads by itself.
    await page.getByRole('heading', { name: 'Parsing' }).waitFor();
    expect(await alert.count()).toBe(0);

    // Online, but the server answers no code (it was updated since the page was opened, or is unreachable).
    await page.goto(`${env.server.baseUrl}/classroom`);
    await card.waitFor();
    let refused = 0;
    await page.route(/\/assets\/.*\.js$/, (route) => {
      refused += 1;
      return route.fulfill({ status: 404, body: 'Not found' });
    });
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await alert.getByText('The connection dropped, or the app was updated. Try again.').waitFor();
    expect(refused).toBeGreaterThan(0);
    await page.unroute(/\/assets\/.*\.js$/);
    // Retry tries again (and a second failure reloads the app); either way Settings shows.
    await alert.getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('tab', { name: /Security/ }).waitFor();
  } finally {
    await context.close();
  }
});

test('on a slow link the first paint is the brand, not a white page, and the app replaces it', async () => {
  const page = await env.browser.newPage({ viewport: { width: 375, height: 812 } });
  // The app's code is held back, as on a 400 kbit/s link for the first seconds.
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.*\.js$/, (route) => (released ? route.continue() : held.push(route)));
  await page.goto(`${env.server.baseUrl}/login`, { waitUntil: 'commit' });
  const splash = page.locator('#root > div[style]');
  await splash.getByText('Classroom', { exact: true }).waitFor();
  await check(page, 'first-paint', 375);
  // The code arrives: React's first render takes the brand's place.
  released = true;
  await Promise.all(held.map((route) => route.continue()));
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  expect(await splash.count()).toBe(0);
  await page.close();
});

test('settings tabs follow the ARIA tabs pattern: one Tab stop, arrows, Home and End select', async () => {
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/settings`);
  const tabs = page.getByRole('tab');
  await tabs.first().waitFor();
  const names = await tabs.allTextContents();
  expect(names.length).toBeGreaterThan(1);
  // Only the selected tab is a Tab stop.
  expect(
    await tabs.evaluateAll((all) =>
      all.map((tab) => `${tab.getAttribute('aria-selected')} ${tab.getAttribute('tabindex')}`),
    ),
  ).toEqual(
    await tabs.evaluateAll((all) =>
      all.map((tab) => (tab.getAttribute('aria-selected') === 'true' ? 'true 0' : 'false -1')),
    ),
  );
  await tabs.first().click();
  const selectedAndFocused = () =>
    page.evaluate(() => ({
      selected: document.querySelector('[role="tab"][aria-selected="true"]')?.textContent,
      focused: document.activeElement?.textContent,
    }));
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  expect(await selectedAndFocused()).toEqual({ selected: names[1], focused: names[1] });
  await page.keyboard.press('End');
  expect(await selectedAndFocused()).toEqual({ selected: names.at(-1), focused: names.at(-1) });
  await page.keyboard.press('ArrowRight');
  expect(await selectedAndFocused()).toEqual({ selected: names[0], focused: names[0] });
  await page.keyboard.press('ArrowLeft');
  expect(await selectedAndFocused()).toEqual({ selected: names.at(-1), focused: names.at(-1) });
  await page.keyboard.press('Home');
  expect(await selectedAndFocused()).toEqual({ selected: names[0], focused: names[0] });
  // Tab leaves the tab list for the panel's first field.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tabpanel"]'))).toBe(true);
  await context.close();
});

test('the share page at every width: the class code on one line, the whole invite link in view', async () => {
  for (const width of WIDTHS) {
    const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 900 });
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/share/${courseId}`);
    await page.waitForFunction(() => (document.querySelector('#invite-link') as HTMLTextAreaElement | null)?.value);
    const layout = await page.evaluate(() => {
      const code = document.querySelector('[data-testid="invite-code"]') as HTMLElement;
      const link = document.querySelector('#invite-link') as HTMLTextAreaElement;
      return {
        codeLines: Math.round(
          code.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(code).lineHeight),
        ),
        codeFits: code.scrollWidth <= code.clientWidth,
        linkShown: link.scrollHeight <= link.clientHeight + 1 && link.scrollWidth <= link.clientWidth,
        // As tall as the link's lines, no empty line under it (the walk found two lines for a one-line link).
        linkSized: (() => {
          const style = getComputedStyle(link);
          const padX = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
          const padY = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
          const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
          context.font = `${style.fontSize} ${style.fontFamily}`;
          const wanted = Math.max(1, Math.ceil(context.measureText(link.value).width / (link.clientWidth - padX)));
          const lines = Math.round((link.clientHeight - padY) / Number.parseFloat(style.lineHeight));
          return lines === wanted || `${lines} lines for ${wanted}`;
        })(),
        link: link.value,
      };
    });
    expect({ width, ...layout, link: layout.link.includes('/join/') }).toEqual({
      width,
      codeLines: 1,
      codeFits: true,
      linkShown: true,
      linkSized: true,
      link: true,
    });
    await check(page, 'share', width);
    await context.close();
  }
}, 120_000);

test('toasts cover no title, have a 24 px close button and stay with their page, and with their person', async () => {
  for (const width of [768, 1280]) {
    const context = await signedInContext(env.browser, env.server, teacher.token, { width, height: 900 });
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/share/${courseId}`);
    await page.getByRole('button', { name: 'New code' }).click();
    await page.getByRole('button', { name: 'Make new code' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'New code ready' });
    await toast.waitFor();
    await page.waitForTimeout(600); // its entrance animation
    const title = await page.getByRole('heading', { level: 1 }).boundingBox();
    const box = await toast.boundingBox();
    const close = await toast.locator('[data-close-button]').boundingBox();
    if (!title || !box || !close) throw new Error('not laid out');
    const overlaps = !(box.y >= title.y + title.height || box.y + box.height <= title.y);
    expect({ width, overlapsTitle: overlaps, inHeader: box.y < 56 }).toEqual({
      width,
      overlapsTitle: false,
      inHeader: false,
    });
    expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(24);
    // Moving on (after it was read) leaves it behind.
    await page.waitForTimeout(2600);
    await page.getByRole('link', { name: 'Compilers', exact: true }).click();
    await page.getByRole('heading', { name: 'Parsing' }).waitFor();
    await toast.waitFor({ state: 'detached', timeout: 3000 });
    await context.close();
  }

  // "Logged out successfully" is for the person who left, not for the one who signs in next on this page.
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const logIn = async (email: string) => {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/classroom');
  };
  await page.goto(`${env.server.baseUrl}/login`);
  await logIn(teacher.email);
  await page.goto(`${env.server.baseUrl}/settings`);
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  const loggedOut = page.locator('[data-sonner-toast]').filter({ hasText: 'Logged out successfully' });
  await loggedOut.waitFor();
  await logIn(newcomer.email);
  await loggedOut.waitFor({ state: 'detached', timeout: 3000 });
  await page.close();
}, 120_000);

test('a toast covers neither the button that showed it nor the title, and its close button is inside it', async () => {
  const apart = (a: Box, b: Box) =>
    a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
  for (const width of [375, 768, 1024]) {
    // A wrong password on the login page: the error toast leaves "Log In" free.
    const page = await env.browser.newPage({ viewport: { width, height: 800 } });
    await page.goto(`${env.server.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    expect(await page.title()).toBe('Sign in · Classroom');
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
    const logIn = page.getByRole('button', { name: 'Log In' });
    await logIn.click();
    const error = page.locator('[data-sonner-toast]').filter({ hasText: 'Please try again' });
    await error.waitFor();
    await page.waitForTimeout(600); // its entrance animation
    const [errorBox, logInBox, close] = await Promise.all([
      error.boundingBox(),
      logIn.boundingBox(),
      error.locator('[data-close-button]').boundingBox(),
    ]);
    if (!errorBox || !logInBox || !close) throw new Error('not laid out');
    expect({ width, coversLogIn: !apart(errorBox, logInBox) }).toEqual({ width, coversLogIn: false });
    // The close button: a 24 px target inside the toast, not a small circle hanging off its corner.
    expect({
      width,
      big: Math.min(close.width, close.height) >= 24,
      inside:
        close.x >= errorBox.x &&
        close.y >= errorBox.y &&
        close.x + close.width <= errorBox.x + errorBox.width &&
        close.y + close.height <= errorBox.y + errorBox.height,
    }).toEqual({ width, big: true, inside: true });
    await page.close();

    // Saving the name in Settings: the toast leaves the button pressed and the page title free.
    const context = await signedInContext(env.browser, env.server, newcomer.token, { width, height: 800 });
    const settings = await context.newPage();
    await settings.goto(`${env.server.baseUrl}/settings`);
    await settings.getByRole('tab', { name: 'Profile Info' }).click();
    await settings.locator('#profile-name').fill(`Newcomer ${width}`);
    const save = settings.locator('form:has(#profile-name) button[type="submit"]');
    await save.click();
    const saved = settings.locator('[data-sonner-toast]').filter({ hasText: 'Name updated' });
    await saved.waitFor();
    await settings.waitForTimeout(600);
    const [savedBox, saveBox, titleBox] = await Promise.all([
      saved.boundingBox(),
      save.boundingBox(),
      settings.getByRole('heading', { level: 1 }).boundingBox(),
    ]);
    if (!savedBox || !saveBox || !titleBox) throw new Error('not laid out');
    expect({
      width,
      coversButton: !apart(savedBox, saveBox),
      coversTitle: !apart(savedBox, titleBox),
      inHeader: savedBox.y < 56,
    }).toEqual({ width, coversButton: false, coversTitle: false, inHeader: false });
    // Saved again and again: phones and tablets show one toast at a time, never a pile growing over the form.
    await save.click();
    await saved.nth(1).waitFor({ state: 'attached' });
    await save.click();
    await saved.nth(2).waitFor({ state: 'attached' });
    await settings.waitForTimeout(600);
    const shown = await settings
      .locator('[data-sonner-toast][data-visible="true"]')
      .evaluateAll((all) => all.filter((toast) => getComputedStyle(toast).opacity !== '0').length);
    expect({ width, shown }).toEqual({ width, shown: width < 1024 ? 1 : 3 });
    const [pileBox, saveAgain] = await Promise.all([saved.first().boundingBox(), save.boundingBox()]);
    if (!pileBox || !saveAgain) throw new Error('not laid out');
    expect({ width, coversButton: !apart(pileBox, saveAgain) }).toEqual({ width, coversButton: false });
    await context.close();
  }
}, 120_000);

test('on a phone, Escape closes the navigation drawer and gives the focus back to the menu button', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 800 });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom`);
  const menu = page.getByRole('button', { name: 'Expand navigation' });
  await menu.click();
  const backdrop = page.getByRole('button', { name: 'Close navigation' });
  await backdrop.waitFor();
  await page.keyboard.press('Escape');
  await backdrop.waitFor({ state: 'detached', timeout: 3000 });
  expect(
    await page.getByRole('button', { name: 'Expand navigation' }).evaluate((b) => b === document.activeElement),
  ).toBe(true);
  // The nav is off screen again.
  await page.waitForFunction(() => (document.getElementById('side-nav')?.getBoundingClientRect().right ?? 99) <= 1);
  // A tap on the backdrop closes it too.
  await menu.click();
  await backdrop.click({ position: { x: 340, y: 400 } });
  await backdrop.waitFor({ state: 'detached', timeout: 3000 });
  await context.close();
}, 60_000);

test('on a tablet the navigation is a rail of icons; opened, it lies over the page and Escape folds it', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 768, height: 1024 });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom`);
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  const nav = page.locator('#side-nav');
  const main = page.locator('#main-content');
  const width = async (locator: typeof nav) => Math.round((await locator.boundingBox())?.width ?? 0);
  // Folded to its icons, every one still a named link; the page has the rest of the width.
  expect({ nav: await width(nav), main: await width(main) }).toEqual({ nav: 64, main: 768 });
  expect(await page.getByRole('link', { name: 'History' }).isVisible()).toBe(true);
  expect(await main.evaluate((element) => Number.parseFloat(getComputedStyle(element).paddingLeft))).toBe(64);
  await check(page, 'classroom-nav-rail', 768);
  // Opened, it lies over the page, which keeps its width; Escape folds it again.
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await page.waitForFunction(() => (document.getElementById('side-nav')?.getBoundingClientRect().width ?? 0) >= 256);
  expect(await main.evaluate((element) => Number.parseFloat(getComputedStyle(element).paddingLeft))).toBe(64);
  await page.getByRole('button', { name: 'Close navigation' }).waitFor();
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => (document.getElementById('side-nav')?.getBoundingClientRect().width ?? 99) <= 64);
  // Moving to another page folds it too.
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await page.getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { name: 'History' }).waitFor();
  await page.getByRole('button', { name: 'Expand navigation' }).waitFor();
  // Over the class page, the opened navigation covers the player's controls too: a tap there reaches the navigation.
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  const bar = page.getByRole('button', { name: 'Play', exact: true }).last();
  await bar.waitFor();
  const box = (await bar.boundingBox())!;
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await page.waitForFunction(() => (document.getElementById('side-nav')?.getBoundingClientRect().width ?? 0) >= 256);
  const under = await page.evaluate(
    ({ x, y }) => {
      const element = document.elementFromPoint(x, y);
      return {
        inNav: Boolean(element?.closest('#side-nav')),
        inPlayer: Boolean(element?.closest('[data-testid="video-player"]')),
      };
    },
    { x: Math.min(box.x + box.width / 2, 200), y: box.y + box.height / 2 },
  );
  expect(under).toEqual({ inNav: true, inPlayer: false });
  await context.close();
}, 60_000);

test("the playlist's topic titles are 24 px targets, and 44 px on a touch screen", async () => {
  const heights = async (touch: boolean) => {
    const context = await env.browser.newContext({
      viewport: { width: 375, height: 812 },
      hasTouch: touch,
      isMobile: touch,
    });
    await context.addCookies([{ name: 'token', value: student.token, url: env.server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    const title = page.getByRole('region', { name: 'Course Playlist' }).getByRole('button', { name: /Parsing/ });
    await title.waitFor();
    const answer = {
      coarse: await page.evaluate(() => matchMedia('(pointer: coarse)').matches),
      height: (await title.boundingBox())?.height ?? 0,
    };
    await context.close();
    return answer;
  };
  const mouse = await heights(false);
  expect(mouse.coarse).toBe(false);
  expect(mouse.height).toBeGreaterThanOrEqual(24);
  const touch = await heights(true);
  expect(touch.coarse).toBe(true);
  expect(touch.height).toBeGreaterThanOrEqual(44);
});

test('a lecture still processing reads "Processing…" with no extra dot, and a short time left for a short clip', async () => {
  const context = await signedInContext(env.browser, env.server, student.token, { width: 1280, height: 900 });
  const page = await context.newPage();
  // The server's answer as it is while the first rung is not out yet, with or without a time left.
  let etaSeconds: number | null = null;
  await page.route(/\/api\/lectures\/course\/[^/]+$/, async (route) => {
    const response = await route.fetch();
    const lectures = (await response.json()) as { video: Record<string, unknown> | null }[];
    for (const lecture of lectures) {
      if (lecture.video)
        Object.assign(lecture.video, { status: 'processing', playable: false, progress: 3, etaSeconds });
    }
    await route.fulfill({ response, json: lectures });
  });
  await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  await page.getByText('Preparing this lecture…').waitFor();
  await page.getByText('Processing… It will play here as soon as the first part is ready.').waitFor();
  expect(await page.evaluate(() => document.body.textContent?.includes('….'))).toBe(false);
  etaSeconds = 20;
  await page.reload();
  await page.getByText('Processing…, ready in less than a minute. It will play here').waitFor();
  expect(await page.evaluate(() => document.body.textContent?.includes('….'))).toBe(false);
  await context.close();
});
