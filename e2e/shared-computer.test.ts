import { beforeAll, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '../src/test/harness';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot } from './server';

/**
 * A shared school computer: one person signs out and the next signs in on the same page, with no reload.
 * Nothing of the first may reach the second, not even for one frame.
 */
const env = e2eEnvironment();

const CLASS_NAME = 'Secret Algebra 7731';
const NOTES = 'Private thought: retest Friday 4412';
let teacher: Awaited<ReturnType<typeof createAccount>>;
let pupil: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Tess Teacher', 'teacher');
  pupil = await createAccount(env.server, env.mail, 'Pia Pupil', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: CLASS_NAME, semester: 2 });
  courseId = course._id;
  expect(courseId).toBeString();
  const saved = await teacher.api('PATCH', `/api/enrollments/${courseId}/notes`, { notes: NOTES });
  expect(saved.notes).toBe(NOTES);
});

async function logIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
}

/** A page on which the teacher signed in through the login form, at this size. */
async function teacherSignedIn(viewport: { width: number; height: number }) {
  const page = await env.browser.newPage({ viewport });
  await page.goto(`${env.server.baseUrl}/login`);
  await logIn(page, teacher.email);
  await page.waitForURL('**/classroom');
  return page;
}

/** The same, then into the class through its card, as the teacher would go. */
async function teacherInTheClass(viewport: { width: number; height: number }) {
  const page = await teacherSignedIn(viewport);
  await page
    .getByRole('link', { name: new RegExp(CLASS_NAME) })
    .first()
    .click();
  await page.waitForURL(`**/classroom/${courseId}`);
  return page;
}

/** A new session of the account over the API, as another device would sign in. */
const freshToken = async (email: string) =>
  (
    await fetch(`${env.server.baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: TEST_PASSWORD }),
    }).then((answer) => answer.json() as Promise<{ token: string }>)
  ).token;

/** Looks at every frame (and every DOM change) for the secrets: text, field values and the page's title. */
const watchForLeaks = (page: Page, secrets: string[]) =>
  page.evaluate((secrets) => {
    const seen: string[] = [];
    const look = (when: string) => {
      const values = [...document.querySelectorAll('input, textarea')].map(
        (field) => (field as HTMLInputElement).value,
      );
      const all = [document.body.textContent ?? '', document.title, ...values].join('\n');
      for (const secret of secrets) if (all.includes(secret)) seen.push(`${when} ${location.pathname}: ${secret}`);
    };
    new MutationObserver(() => look('mutation')).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
    const frame = () => {
      look('frame');
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    (window as unknown as { leaks: string[] }).leaks = seen;
  }, secrets);

const leaks = (page: Page) => page.evaluate(() => [...new Set((window as unknown as { leaks: string[] }).leaks)]);

/** Moves inside the app as a link would (history + popstate): the same page, the same JavaScript, no reload. */
const goInApp = (page: Page, path: string) =>
  page.evaluate((path) => {
    history.pushState({}, '', path);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);

test('the teacher signs out and a pupil signs in on the same page: the pupil never sees the teacher’s data', async () => {
  const page = await teacherInTheClass({ width: 375, height: 812 });
  const notes = page.getByRole('textbox', { name: 'Course notes' });
  await expect(notes.inputValue()).resolves.toBe(NOTES);
  // Choices the player keeps in this browser, as watching would leave them.
  await page.evaluate(() => {
    localStorage.setItem('classroom.player.speed', '1.5');
    localStorage.setItem('classroom.player.captions', 'en');
  });

  // To settings through the app's own link: the page (and its cache) lives on, as on a real afternoon.
  await page.getByRole('link', { name: 'Open settings' }).click();
  await page.waitForURL('**/settings');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Logged out successfully').waitFor();
  await watchForLeaks(page, [CLASS_NAME, NOTES, 'Tess Teacher', teacher.email]);
  const stored = await page.evaluate(() => ({
    local: Object.keys(localStorage).filter((key) => key.startsWith('classroom.') || key.startsWith('tus::')),
    session: sessionStorage.length,
    cookie: document.cookie,
  }));
  expect(stored).toEqual({ local: [], session: 0, cookie: '' });

  // The pupil signs in on the same page and lands on their own classes, not on the teacher's last page.
  await logIn(page, pupil.email);
  await page.getByText('Login successful!').waitFor();
  await page.waitForURL('**/classroom');
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  // Opening the teacher's class by its address shows nothing of it: no cached class, no cached notes.
  await goInApp(page, `/classroom/${courseId}`);
  await page.getByText('It may have been deleted, or you are not in this class.').waitFor();
  await goInApp(page, '/classroom');
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  await goInApp(page, '/history');
  await page.waitForLoadState('networkidle');
  await screenshot(page, 'shared-computer-pupil');
  expect(await leaks(page)).toEqual([]);
  await page.close();
});

test('an ended session (signed out everywhere from another device) clears the page too', async () => {
  const page = await teacherSignedIn({ width: 1280, height: 800 });
  await page
    .getByRole('link', { name: new RegExp(CLASS_NAME) })
    .first()
    .waitFor();
  // The teacher ends every session from elsewhere; this page finds out on its next request.
  const ended = await fetch(`${env.server.baseUrl}/api/users/logout-all`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await freshToken(teacher.email)}` },
  });
  expect(ended.status).toBe(200);
  await goInApp(page, `/classroom/${courseId}`);
  await page.waitForURL('**/login');
  await watchForLeaks(page, [CLASS_NAME, NOTES]);
  await logIn(page, pupil.email);
  await page.waitForURL('**/classroom');
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  await page.waitForLoadState('networkidle');
  expect(await leaks(page)).toEqual([]);
  await page.close();
});

test('signing out with an upload running asks first', async () => {
  const page = await teacherInTheClass({ width: 768, height: 900 });
  // Hold the upload's data so it is still running when the teacher signs out (its ending DELETE goes through).
  let uploadId = '';
  await page.route('**/api/uploads/**', (route) => {
    uploadId = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    if (route.request().method() !== 'PATCH') return route.continue();
  });
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page
    .getByLabel('Video File')
    .setInputFiles({ name: 'big.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(2 * 1024 * 1024, 1) });
  await page.getByLabel('Topic Name').fill('Half-sent');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('upload-row').first().waitFor();

  await goInApp(page, '/settings');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('heading', { name: 'Uploads are still running' }).waitFor();
  await screenshot(page, 'sign-out-with-uploads');
  await page.getByRole('button', { name: 'Cancel', exact: true }).click();
  expect(page.url()).toEndWith('/settings');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Stop uploads and log out' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Logged out successfully').waitFor();
  expect(await page.getByTestId('upload-row').count()).toBe(0);
  // The server no longer has the half-sent upload.
  expect(uploadId).not.toBe('');
  const token = await freshToken(teacher.email);
  const head = await fetch(`${env.server.baseUrl}/api/uploads/${uploadId}`, {
    method: 'HEAD',
    headers: { authorization: `Bearer ${token}`, 'tus-resumable': '1.0.0' },
  });
  expect([404, 410]).toContain(head.status);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tus::')))).toEqual([]);
  await page.close();
});
