import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip, readBytes, uploadForm } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-notify-'));

afterAll(() => rmSync(clips, { recursive: true, force: true }));

/** The one-click unsubscribe token of a captured mail (its List-Unsubscribe header, unfolded). */
const unsubscribeToken = (raw: string) =>
  /^List-Unsubscribe:\s*<[^>]*token=([^>]+)>/m.exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1];

test('a new lecture puts a dot on the student’s class card and mails them; opening the class clears the dot', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Nora Notify', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Sid Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Optics' });
  const quiet = await teacher.api('POST', '/api/courses', { courseName: 'Acoustics' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  await student.api('POST', '/api/enrollments/join', { inviteCode: quiet.inviteCode });

  const context = await signedInContext(env.browser, env.server, student.token, { width: 375, height: 800 });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom`);
  const card = (name: string) => page.getByRole('article').filter({ hasText: name });
  await card('Optics').waitFor();
  expect(await page.getByRole('img', { name: 'new' }).count()).toBe(0);

  const clip = await makeClip(clips, { width: 320, height: 240, seconds: 2 });
  const form = uploadForm(readBytes(clip), 'light.mp4');
  form.append('courseId', course._id);
  form.append('nameOfTopic', 'Refraction');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  // The student is mailed once the video is ready (the worker sends it), with the one-click unsubscribe headers.
  const [mail] = await env.mail.waitFor(student.email, 2, 60_000);
  expect(mail).toBeDefined();
  const lectureMail = env.mail.mailsTo(student.email)[1];
  expect(lectureMail?.subject).toBe('New lecture in Optics: Refraction');
  expect(lectureMail?.text).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  expect(unsubscribeToken(lectureMail?.text ?? '')).toBeTruthy();
  expect((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status).toBe('ready');

  await page.reload();
  const dot = card('Optics').getByRole('img', { name: 'new' });
  await dot.waitFor();
  expect(await card('Acoustics').getByRole('img', { name: 'new' }).count()).toBe(0);
  await screenshot(page, 'class-card-new-dot-375');

  // A quick open-and-back: back as soon as the visit is answered (it goes once the class has loaded, not after the
  // first screen), waiting for that answer rather than for time.
  const visited = page.waitForResponse(
    (response) =>
      response.url().endsWith(`/api/notifications/visits/${course._id}`) && response.request().method() === 'POST',
  );
  await card('Optics').getByRole('link').click();
  expect((await visited).ok()).toBe(true);
  await page.goBack();
  await card('Optics').waitFor();
  // Gone on return (the visit refreshed the list), and after a reload too.
  await dot.waitFor({ state: 'detached' });
  await page.reload();
  await card('Optics').waitFor();
  expect(await page.getByRole('img', { name: 'new' }).count()).toBe(0);
  await context.close();
}, 120_000);

test('Settings: the email choice loads before it can be changed, saves with feedback, and a failed load offers Retry', async () => {
  const student = await createAccount(env.server, env.mail, 'Pia Prefs', 'student');
  const context = await signedInContext(env.browser, env.server, student.token, { width: 768, height: 1000 });
  const page = await context.newPage();
  let failing = true;
  await page.route('**/api/users/notifications', (route) =>
    failing && route.request().method() === 'GET'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"Down for a moment."}' })
      : route.continue(),
  );
  await page.goto(`${env.server.baseUrl}/settings`);
  const section = page.getByRole('region', { name: 'Email notifications' });
  await section.getByText('Could not load your email notifications.').waitFor();
  // No choice is shown that a save could send.
  expect(await section.getByRole('radio').count()).toBe(0);
  failing = false;
  await section.getByRole('button', { name: 'Retry' }).click();
  await section.getByRole('radio', { name: /Every event/, checked: true }).waitFor();

  await section.getByRole('radio', { name: /Daily digest/ }).check();
  await section.getByRole('button', { name: 'Save' }).click();
  await section.getByRole('status').getByText('Saved.').waitFor();
  expect(await student.api('GET', '/api/users/notifications')).toEqual({ email: 'daily' });
  await page.reload();
  // Checked once the saved choice has loaded (until then every choice is disabled and none is checked).
  await section.getByRole('radio', { name: /Daily digest/, checked: true }).waitFor();
  expect(await section.getByRole('radio', { name: /Every event/ }).isChecked()).toBe(false);
  await screenshot(page, 'settings-email-notifications-768');
  await context.close();
});

test('the unsubscribe link shows a button and changes nothing until it is pressed', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Uma Unsub', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Ulf Unsub', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Mechanics' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const lectures = await student.api('GET', `/api/lectures/course/${course._id}`);
  expect(lectures).toEqual([]);
  // The teacher is mailed about the student's comment on a lecture (no video needed for a comment).
  const lecture = await teacher.api('POST', '/api/lectures', { courseId: course._id, nameOfTopic: 'Levers' });
  await student.api('POST', `/api/lectures/${lecture._id}/comments`, { text: 'Which lever is the arm?' });
  const mails = await env.mail.waitFor(teacher.email, 2, 20_000);
  const mail = mails[1];
  expect(mail?.subject).toBe('Ulf Unsub commented on Levers');
  const token = unsubscribeToken(mail?.text ?? '');
  expect(token).toBeTruthy();

  // The teacher answers with Reply: the student is told, the teacher (who replied) is not.
  const teaching = await signedInContext(env.browser, env.server, teacher.token, { width: 1024, height: 900 });
  const lecturePage = await teaching.newPage();
  await lecturePage.goto(`${env.server.baseUrl}/classroom/${course._id}?lecture=${lecture._id}`);
  await lecturePage.getByRole('button', { name: 'Reply to Ulf Unsub' }).click();
  await lecturePage.getByText('Replying to').waitFor();
  await lecturePage.getByRole('textbox', { name: 'Reply to Ulf Unsub' }).fill('The long one.');
  await lecturePage.getByRole('button', { name: 'Reply', exact: true }).click();
  await lecturePage.getByText('The long one.').waitFor();
  // The list refetches before the form resets (the mutation waits for it): the reply form then closes.
  await lecturePage.getByText('Replying to').waitFor({ state: 'detached', timeout: 5_000 });
  expect(await lecturePage.getByRole('textbox', { name: 'Add a comment' }).inputValue()).toBe('');
  const studentMails = await env.mail.waitFor(student.email, 2, 20_000);
  expect(studentMails[1]?.subject).toBe('Uma Unsub replied to your comment on Levers');
  await teaching.close();
  expect(env.mail.mailsTo(teacher.email)).toHaveLength(2);

  const context = await env.browser.newContext({ viewport: { width: 375, height: 700 } });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/api/notifications/unsubscribe?token=${token}`);
  await page.getByRole('heading', { name: 'Stop notification emails?' }).waitFor();
  // It looks like the app (its brand, a card) and its "Settings" is a link there.
  await page.getByText('Classroom', { exact: true }).waitFor();
  expect(await page.locator('main').evaluate((card) => getComputedStyle(card).borderRadius)).toBe('16px');
  expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
  await screenshot(page, 'unsubscribe-375');
  expect(await teacher.api('GET', '/api/users/notifications')).toEqual({ email: 'every' });
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await page.getByRole('heading', { name: 'Unsubscribed' }).waitFor();
  expect(await teacher.api('GET', '/api/users/notifications')).toEqual({ email: 'none' });
  // Signed out in this browser: Settings asks for the sign-in first.
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.waitForURL('**/login');
  await context.close();
});
