import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';
import { launchWebKit, signInThroughForm } from './webkit';

/**
 * Every screen in the pseudo-language (docs/translating.md): accented, longer, bracketed English made by the build
 * from the catalogue. Any plain English word left on screen, in a label or in the tab's title is a string the
 * catalogue does not hold. People's own words (names, titles, comments) are marked `translate="no"`, and the
 * test's data has no English word in it either. Then Arabic, right to left, at a phone's and a desktop's width.
 */
// Fake camera, microphone and screen, so the recorder's screens are there to read.
const env = e2eEnvironment(
  { TEACHER_SIGNUP: 'open', LOCALES: 'en-XA,en,ar', DEFAULT_LOCALE: 'en-XA' },
  { browserArgs: ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'] },
);
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-languages-'));
let admin: Awaited<ReturnType<typeof createAccount>>;
let teacher: Awaited<ReturnType<typeof createAccount>>;
let student: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let inviteCode: string;

beforeAll(async () => {
  // The first account of a fresh install is its administrator.
  admin = await createAccount(env.server, env.mail, 'Ad1 Ωμέγα Zz', 'teacher');
  teacher = await createAccount(env.server, env.mail, 'Te2 Γρέις Zz', 'teacher');
  student = await createAccount(env.server, env.mail, 'St3 Άντα Zz', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Ψ 9', semester: 3 });
  courseId = course._id;
  inviteCode = course.inviteCode;
  await student.api('POST', '/api/enrollments/join', { inviteCode });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 4 })), 'a.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  const lecture = await teacher.api('POST', '/api/lectures', {
    courseId,
    nameOfTopic: 'Ж 1',
    videoLink: uploaded.masterPlaylist,
  });
  await student.api('POST', `/api/lectures/${lecture._id}/comments`, { text: 'ñ ñ' });
  await student.api('PATCH', `/api/enrollments/${courseId}/notes`, { notes: 'ЖЖ' });
  // Signed in, the account's own choice is the language (Settings → Language).
  for (const account of [admin, teacher, student]) {
    expect((await account.api('PATCH', `/api/users/${account.user._id}`, { locale: 'en-XA' })).locale).toBe('en-XA');
  }
}, 120_000);
afterAll(() => rmSync(clips, { recursive: true, force: true }));

/**
 * English words `Intl` writes in a language it has no data for (the pseudo-language is English underneath): dates,
 * "3 minutes ago", units. In a real language Intl writes its own; they are not the catalogue's to hold.
 */
const INTL_WORDS = [
  ...'January February March April May June July August September October November December'.split(' '),
  ...'Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec'.split(' '),
  ...'Monday Tuesday Wednesday Thursday Friday Saturday Sunday Mon Tue Wed Thu Fri Sat Sun'.split(' '),
  ...'now ago yesterday today tomorrow second seconds minute minutes hour hours day days week weeks min sec'.split(' '),
  ...'at AM PM'.split(' '),
  // A key's name in sonner's label ("Notifications alt+T").
  'alt',
];

/** Plain English left on the page: visible text, labels, titles and placeholders outside `translate="no"`. */
async function englishLeft(page: Page): Promise<string[]> {
  return page.evaluate((intlWords: string[]) => {
    const allowed = new Set(intlWords);
    const english = (text: string) =>
      (text.match(/[A-Za-z]{3,}/g) ?? []).filter((word) => !allowed.has(word) && word !== 'Classroom');
    const found: string[] = [];
    const mine = (element: Element | null) => !element?.closest('[translate="no"], script, style, noscript');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !mine(element)) continue;
      if (
        !element.checkVisibility?.({ checkOpacity: false, checkVisibilityCSS: true }) &&
        !element.closest('[role=alert], [aria-live]')
      )
        continue;
      const words = english(node.textContent ?? '');
      if (words.length > 0) found.push(`text "${(node.textContent ?? '').trim().slice(0, 80)}"`);
    }
    for (const element of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (!mine(element)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name);
        if (value && english(value).length > 0) found.push(`${name} "${value.slice(0, 80)}"`);
      }
    }
    if (english(document.title).length > 0) found.push(`title "${document.title}"`);
    return [...new Set(found)];
  }, INTL_WORDS);
}

const problems: string[] = [];
async function look(page: Page, name: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(300);
  for (const word of await englishLeft(page)) problems.push(`${name}: ${word}`);
}

/** The browser's own language is English here: the pseudo-language is chosen as a person would, by its cookie. */
async function inPseudo(context: BrowserContext) {
  await context.addCookies([{ name: 'locale', value: 'en-XA', url: env.server.baseUrl }]);
  return context;
}

async function visit(context: BrowserContext, path: string, name: string, ready?: (page: Page) => Promise<unknown>) {
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}${path}`);
  await page.locator('#root > *').first().waitFor();
  if (ready) await ready(page);
  await look(page, name);
  return page;
}

test('every screen in the pseudo-language: no English word is left', async () => {
  const visitor = await inPseudo(await env.browser.newContext({ viewport: { width: 1280, height: 900 } }));
  const login = await visit(visitor, '/login', 'sign-in', (page) => page.locator('input[type=email]').waitFor());
  // The sign-in page's own problems: empty fields, then a wrong password (the server's words).
  await login.locator('button[type=submit]').click();
  await look(login, 'sign-in, empty fields');
  await login.locator('input[type=email]').fill('nobody@example.com');
  await login.locator('input[type=password]').fill('wrong password 1');
  await login.locator('button[type=submit]').click();
  await login.locator('[role=alert]').first().waitFor();
  await look(login, 'sign-in, refused');
  await visit(visitor, '/signup', 'sign-up', (page) => page.locator('input[type=email]').waitFor());
  await visit(visitor, '/forgot-password', 'forgot password', (page) => page.locator('input').first().waitFor());
  await visit(visitor, `/join/${inviteCode}`, 'join, signed out');
  await visit(visitor, '/school-sign-in?error=denied', 'school sign-in problem');
  await visit(visitor, '/no-such-page', 'not found');

  const asTeacher = await inPseudo(await signedInContext(env.browser, env.server, teacher.token));
  const classes = await visit(asTeacher, '/classroom', 'classes, teacher', (page) =>
    page.getByText('Ψ 9').first().waitFor(),
  );
  // Every dialog of the class list: create a class, and a refused one (empty name).
  await classes.locator('main button').first().click();
  await classes.locator('dialog[open]').waitFor();
  await look(classes, 'create class dialog');
  await classes.locator('dialog[open] button[type=submit]').click();
  await look(classes, 'create class dialog, refused');
  const course = await visit(asTeacher, `/classroom/${courseId}`, 'class, teacher', (page) =>
    page.getByText('Ж 1').first().waitFor(),
  );
  // The teacher's dialogs: a new topic (then its upload in the tray), and the topic's menu with Edit (captions,
  // chapters, due date).
  await course.locator('section button.btn-primary').first().click();
  await course.locator('dialog[open]').waitFor();
  await look(course, 'add topic dialog');
  await course
    .locator('dialog[open] input[type=file]')
    .setInputFiles(await makeClip(clips, { width: 320, height: 180, seconds: 2, name: 'ж.mp4' }));
  await course.locator('dialog[open] input[type=text], dialog[open] input:not([type])').first().fill('Ж 2');
  await course.locator('dialog[open] button[type=submit]').click();
  await course
    .locator('dialog[open]')
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
  await course.waitForTimeout(1500);
  await look(course, 'upload tray');
  await course.locator('button[aria-haspopup=menu]').first().click();
  await course.locator('[role=menu]').waitFor();
  await look(course, 'topic menu');
  await course.locator('[role=menuitem]').first().click();
  await course.locator('dialog[open]').waitFor();
  await course.waitForTimeout(800);
  await look(course, 'edit topic dialog');
  await course.keyboard.press('Escape');
  // The recorder, from a new topic: its setup step with the camera's preview and the microphone's level.
  await course.locator('section button.btn-primary').first().click();
  await course.locator('dialog[open] input[type=text], dialog[open] input:not([type])').first().fill('Ж 3');
  await course.locator('dialog[open] button.btn-secondary.self-start').click();
  await course.locator('dialog[open] meter, dialog[open] [role=meter]').first().waitFor();
  await course.waitForTimeout(800);
  await look(course, 'recorder setup');
  await course.keyboard.press('Escape');
  await visit(asTeacher, `/share/${courseId}`, 'share');
  for (const path of ['/settings', '/history', '/search?q=%D0%96', '/downloads']) await visit(asTeacher, path, path);
  const settings = await visit(asTeacher, '/settings', 'settings tabs');
  for (const tab of await settings.getByRole('tab').all()) {
    await tab.click();
    await look(settings, `settings tab ${await tab.textContent()}`);
  }

  const asStudent = await inPseudo(await signedInContext(env.browser, env.server, student.token));
  await visit(asStudent, '/classroom', 'classes, student', (page) => page.getByText('Ψ 9').first().waitFor());
  const watching = await visit(asStudent, `/classroom/${courseId}`, 'class, student', (page) =>
    page.locator('video').waitFor({ state: 'attached' }),
  );
  // The player's own menus.
  const settingsButton = watching.locator('button[aria-haspopup]').first();
  if (await settingsButton.count()) {
    await settingsButton.click();
    await look(watching, 'player settings menu');
    await watching.keyboard.press('Escape');
  }
  // The player's own errors: every segment refused.
  const broken = await asStudent.newPage();
  await broken.route(/\/media\/.*\.(ts|m4s|mp4)(\?|$)/, (route) => route.abort());
  await broken.goto(`${env.server.baseUrl}/classroom/${courseId}`);
  await broken.locator('video').waitFor({ state: 'attached' });
  await broken.locator('[data-testid=video-player] button').first().click();
  await broken.waitForTimeout(6000);
  await look(broken, 'player, segments refused');
  await broken.close();
  // Offline: the app says so in the person's language.
  await asStudent.setOffline(true);
  await watching.waitForTimeout(3500);
  await look(watching, 'class, student, offline');
  await asStudent.setOffline(false);

  const asAdmin = await inPseudo(await signedInContext(env.browser, env.server, admin.token));
  const console = await visit(asAdmin, '/admin', 'admin');
  for (const tab of await console.getByRole('tab').all()) {
    await tab.click();
    await look(console, `admin tab ${await tab.textContent()}`);
  }
  for (const context of [visitor, asTeacher, asStudent, asAdmin]) await context.close();
  expect(problems).toEqual([]);
}, 300_000);

test('Arabic, right to left, at 375 and 1280 px: the page reads rtl, the drawer opens from the right, axe passes', async () => {
  await student.api('PATCH', `/api/users/${student.user._id}`, { locale: 'ar' });
  for (const width of [375, 1280]) {
    const context = await signedInContext(env.browser, env.server, student.token, { width, height: 850 });
    await context.addCookies([{ name: 'locale', value: 'ar', url: env.server.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${env.server.baseUrl}/classroom`);
    await page.getByText('Ψ 9').first().waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    expect({
      width,
      fits: await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    }).toEqual({ width, fits: true });
    expect(await seriousA11yFindings(page)).toEqual([]);
    await screenshot(page, `arabic-classes-${width}`);
    if (width === 375) {
      await page.locator('header button[aria-expanded]').first().click();
      const drawer = page
        .locator('nav')
        .filter({ has: page.getByRole('link') })
        .first();
      await drawer.waitFor();
      await page.waitForTimeout(400);
      const box = await drawer.boundingBox();
      // Opened from the right: its right edge is the screen's.
      expect(Math.round((box?.x ?? 0) + (box?.width ?? 0))).toBe(width);
      await screenshot(page, 'arabic-drawer-375');
    }
    await page.goto(`${env.server.baseUrl}/classroom/${courseId}`);
    await page.locator('video').waitFor({ state: 'attached' });
    // The player's controls stay left to right, as every player's do.
    expect(await page.locator('[data-testid=player-time]').evaluate((time) => getComputedStyle(time).direction)).toBe(
      'ltr',
    );
    expect(await seriousA11yFindings(page)).toEqual([]);
    await screenshot(page, `arabic-class-${width}`);
    const signedOut = await env.browser.newContext({ viewport: { width, height: 850 }, locale: 'ar' });
    const login = await signedOut.newPage();
    await login.goto(`${env.server.baseUrl}/login`);
    await login.locator('input[type=email]').waitFor();
    expect(await login.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await seriousA11yFindings(login)).toEqual([]);
    await screenshot(login, `arabic-login-${width}`);
    await signedOut.close();
    await context.close();
  }
}, 180_000);

test('Arabic in WebKit (the engine of every iPhone browser): right to left at its narrowest and at 1280 px', async () => {
  const webkit = await launchWebKit('mse');
  try {
    await webkit.navigate(`${env.server.baseUrl}/login`);
    await webkit.run(() => {
      // biome-ignore lint/suspicious/noDocumentCookie: the language cookie, as the page's own menu sets it
      document.cookie = 'locale=ar; Path=/';
    });
    await signInThroughForm(webkit, env.server.baseUrl, { email: student.email, password: student.password });
    // MiniBrowser goes no narrower than 447 px: the narrowest it draws, and a desktop.
    for (const asked of [375, 1280]) {
      const width = await webkit.resize(asked, 900);
      await webkit.navigate(`${env.server.baseUrl}/classroom`);
      await webkit.waitFor('the class list', () => document.body.textContent?.includes('Ψ 9'));
      expect(await webkit.run(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        'ar',
        'rtl',
      ]);
      expect(await webkit.run(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await webkit.seriousA11yFindings()).toEqual([]);
      await webkit.screenshot(`arabic-webkit-classes-${width}`);
      await webkit.navigate(`${env.server.baseUrl}/classroom/${courseId}`);
      await webkit.waitFor('the player', () => document.querySelector('video'));
      expect(await webkit.seriousA11yFindings()).toEqual([]);
      await webkit.screenshot(`arabic-webkit-class-${width}`);
    }
  } finally {
    await webkit.close();
  }
}, 240_000);
