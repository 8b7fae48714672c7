import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { makeClip, readBytes, uploadForm } from '../src/test/fixtures';
import { apiClient } from '../src/test/harness';
import { waitUntil } from '../src/test/wait';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

/** A fresh install with the defaults (teachers wait for approval) and backups on. */
const backups = mkdtempSync(join(tmpdir(), 'classroom-e2e-backups-'));
const env = e2eEnvironment({ BACKUP_DIR: backups });
afterAll(() => rmSync(backups, { recursive: true, force: true }));
/** The install's first account (its administrator), once the first test made it. */
let firstAccount: Awaited<ReturnType<typeof createAccount>> | undefined;

async function fits(page: Page, name: string) {
  // Toasts stack half-transparent while they leave: check the page once they are gone.
  await page.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await seriousA11yFindings(page)).toEqual([]);
  await screenshot(page, name);
}

test('the administrator approves a teacher, sends a reset code and starts a backup; the teacher removes a student', async () => {
  const admin = await createAccount(env.server, env.mail, 'Alma Admin', 'student');
  firstAccount = admin;
  const teacher = await createAccount(env.server, env.mail, 'Theo Teacher', 'teacher');
  const student = await createAccount(env.server, env.mail, 'Stu Dent', 'student');
  expect(admin.user).toMatchObject({ isAdmin: true });

  // The waiting teacher sees why they cannot create a class yet.
  const teacherContext = await signedInContext(env.browser, env.server, teacher.token, { width: 375, height: 812 });
  const teacherPage = await teacherContext.newPage();
  await teacherPage.goto(`${env.server.baseUrl}/classroom`);
  await teacherPage
    .getByText("Your teacher account is waiting for the administrator's approval.", { exact: false })
    .waitFor();
  expect(await teacherPage.getByRole('button', { name: 'Create class' }).isDisabled()).toBe(true);
  await fits(teacherPage, 'teacher-waiting-phone');

  // The administrator, on a phone: Admin in the menu, the users list.
  const adminContext = await signedInContext(env.browser, env.server, admin.token, { width: 375, height: 812 });
  const adminPage = await adminContext.newPage();
  await adminPage.goto(`${env.server.baseUrl}/classroom`);
  await adminPage.getByRole('button', { name: 'Expand navigation' }).click();
  await adminPage.getByRole('link', { name: 'Admin' }).click();
  await adminPage.getByRole('heading', { name: 'Administration' }).waitFor();
  await adminPage.getByText('Waits for approval').waitFor();
  await fits(adminPage, 'admin-users-phone');
  await adminPage.getByRole('button', { name: 'Approve Theo Teacher as a teacher' }).click();
  await adminPage.getByText('Waits for approval').waitFor({ state: 'detached' });

  // Approved: the teacher creates a class; the student joins.
  await teacherPage.reload();
  await teacherPage.getByRole('button', { name: 'Create class' }).click();
  await teacherPage.getByLabel('Class Name').fill('Approved 101');
  await teacherPage.getByRole('dialog').getByRole('button', { name: 'Create Class' }).click();
  await teacherPage
    .getByRole('link', { name: /^Approved 101/ })
    .first()
    .waitFor();
  const course = (await teacher.api('GET', '/api/courses'))[0];
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  // Counts in the right number: "1 student", "0 lectures".
  await adminPage.getByRole('tab', { name: 'Classes' }).click();
  await adminPage.getByText(/· 1 student · 0 lectures ·/).waitFor();
  await adminPage.getByRole('tab', { name: 'Users' }).click();

  // Disable asks first: Cancel changes nothing; confirmed, the account is disabled and its sessions end.
  const other = await createAccount(env.server, env.mail, 'Dee Disabled', 'student');
  await adminPage.getByLabel('Search by name or email').fill('dee');
  await adminPage.getByRole('button', { name: 'Disable Dee Disabled' }).click();
  const confirm = adminPage.getByRole('dialog', { name: 'Disable Dee Disabled?' });
  await confirm.waitFor();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect((await other.api('GET', '/api/users')).code).toBeUndefined();
  await adminPage.getByRole('button', { name: 'Disable Dee Disabled' }).click();
  await confirm.getByRole('button', { name: 'Disable account' }).click();
  await adminPage.getByRole('button', { name: 'Enable Dee Disabled' }).waitFor();
  expect(['unauthorized', 'account_disabled']).toContain((await other.api('GET', '/api/users')).code);

  // A reset code for the student, by mail.
  await adminPage.getByLabel('Search by name or email').fill('stu');
  await adminPage.getByRole('button', { name: 'Send reset code to Stu Dent' }).click();
  await adminPage.getByText(`A password reset code was sent to ${student.email}.`).waitFor();
  expect(await env.mail.nthCode(student.email, 2)).toMatch(/^\d{6}$/);

  // The teacher removes the student from the class; the student loses access at once.
  await teacherPage.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await teacherPage.getByRole('button', { name: 'Remove Stu Dent from the class' }).click();
  await teacherPage.getByRole('button', { name: 'Remove', exact: true }).click();
  await teacherPage.getByText('Stu Dent was removed from the class.').waitFor();
  expect((await student.api('GET', `/api/courses/${course._id}`)).code).toBe('course_not_found');

  // A backup from the console.
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await adminPage.getByRole('tab', { name: 'Server' }).click();
  await adminPage.getByRole('button', { name: 'Start a backup now' }).click();
  await adminPage.getByText('A backup has started.').waitFor();
  await adminPage
    .getByRole('list', { name: 'Snapshots' })
    .getByText(/media files, added/)
    .first()
    .waitFor({ timeout: 20_000 });
  await fits(adminPage, 'admin-server-desktop');
  await adminPage.getByRole('tab', { name: 'Classes' }).click();
  await adminPage.getByText('Approved 101').waitFor();
  await fits(adminPage, 'admin-classes-desktop');
  await adminContext.close();
  await teacherContext.close();
}, 120_000);

test('a teacher who signs up is mailed to the administrator and counted on Admin; Approve and Decline are toasted and mailed', async () => {
  const admin = firstAccount ?? (await createAccount(env.server, env.mail, 'Ava Approver', 'student'));
  firstAccount = admin;
  expect(admin.user).toMatchObject({ isAdmin: true });
  const mailTo = (to: string, subject: string) =>
    waitUntil(`"${subject}" to ${to}`, () => env.mail.mailsTo(to).find((mail) => mail.subject === subject), {
      timeoutMs: 20_000,
    });
  const waiting = async () => (await admin.api('GET', '/api/admin/waiting-teachers')).count as number;
  const before = await waiting();
  const counted = (n: number) => new RegExp(`\\(${n} teachers? to approve\\)$`);

  const context = await signedInContext(env.browser, env.server, admin.token, { width: 1280, height: 900 });
  const page = await context.newPage();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [name, decision] of [
    ['Wren Waiting', 'approve'],
    ['Rex Refused', 'decline'],
  ] as const) {
    const teacher = await createAccount(env.server, env.mail, name, 'teacher');
    expect(teacher.user.teacherStatus).toBe('pending');
    // The administrator is mailed, and both badges count the teacher.
    const notice = await mailTo(admin.email, `${name} waits for approval as a teacher`);
    expect(notice.text).toContain(teacher.email);
    expect(await waiting()).toBe(before + 1);
    await page.goto(`${env.server.baseUrl}/classroom`);
    await nav.getByRole('link', { name: counted(before + 1) }).click();
    const usersTab = page.getByRole('tab', { name: /^Users/ });
    await usersTab.waitFor();
    expect(await usersTab.getAttribute('aria-selected')).toBe('true');
    expect(await usersTab.textContent()).toMatch(counted(before + 1));
    await page.getByLabel('Search by name or email').fill(name);
    if (decision === 'approve') {
      await fits(page, 'admin-waiting-teacher-badge-desktop');
      await page.getByRole('button', { name: `Approve ${name} as a teacher` }).click();
      await page.getByText(`${name} is approved and can now create classes.`).waitFor();
      const told = await mailTo(teacher.email, 'You can now create classes on Classroom');
      expect(told.text).toContain('You can now create classes');
    } else {
      await page.getByRole('button', { name: `Decline ${name}'s request to teach` }).click();
      await page.getByText(`${name}'s request to teach was declined.`).waitFor();
      const told = await mailTo(teacher.email, 'Your request to teach on Classroom');
      expect(told.text).toContain('Thank you for your interest in teaching');
    }
    // The count went down on the tab and in the menu at once (the action refreshed it).
    await page.getByText('Waits for approval').waitFor({ state: 'detached' });
    expect(await waiting()).toBe(before);
    if (before === 0) {
      await page.getByRole('tab', { name: 'Users', exact: true }).waitFor();
      await nav.getByRole('link', { name: 'Admin', exact: true }).waitFor();
    } else {
      await nav.getByRole('link', { name: counted(before) }).waitFor();
    }
  }
  await context.close();
}, 120_000);

test('a student is not shown the console, and its API refuses them', async () => {
  const student = await createAccount(env.server, env.mail, 'Nosy Student', 'student');
  const context = await signedInContext(env.browser, env.server, student.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/admin`);
  await page.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
  expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
  expect((await student.api('GET', '/api/admin/users')).code).toBe('forbidden');
  await context.close();
});

test("the console's Cancel leaves a lecture the teacher reads as cancelled, and Retry starts it again", async () => {
  // The administrator of this install (the first account: the first test's, or this one's when run alone).
  const admin = firstAccount ?? (await createAccount(env.server, env.mail, 'Cara Cancel', 'student'));
  expect(admin.user).toMatchObject({ isAdmin: true });
  const teacher = await createAccount(env.server, env.mail, 'Tess Cancel', 'teacher');
  await admin.api('PATCH', `/api/admin/users/${teacher.user._id}`, { teacherApproved: true });
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Cancel 101' });
  // Long enough to still be waiting or processing when the administrator cancels it.
  const clip = await makeClip(backups, { width: 1280, height: 720, seconds: 40, name: 'long-cancel.mp4' });
  const form = uploadForm(readBytes(clip), 'long-cancel.mp4');
  form.append('courseId', course._id);
  form.append('nameOfTopic', 'Too long');
  const uploaded = await apiClient(env.server.baseUrl)('POST', '/api/upload', { as: teacher.token, body: form });
  expect(uploaded.status).toBe(201);
  // A second video, in a class of its own, waits its turn: one video is processed at a time.
  const waitCourse = await teacher.api('POST', '/api/courses', { courseName: 'Wait 101' });
  const waitForm = uploadForm(readBytes(clip), 'long-wait.mp4');
  waitForm.append('courseId', waitCourse._id);
  waitForm.append('nameOfTopic', 'Waits its turn');
  const waiting = await apiClient(env.server.baseUrl)('POST', '/api/upload', { as: teacher.token, body: waitForm });
  expect(waiting.status).toBe(201);
  const stateOf = (queue: Array<{ fileName: string | null; state: string }>, fileName: string) =>
    queue.find((job) => job.fileName === fileName)?.state;
  await waitUntil('the first video is processing and the second waits', async () => {
    const { queue } = await admin.api('GET', '/api/admin/overview');
    return stateOf(queue, 'long-cancel.mp4') === 'running' && stateOf(queue, 'long-wait.mp4') === 'queued';
  });

  const teacherContext = await signedInContext(env.browser, env.server, teacher.token);
  const teacherPage = await teacherContext.newPage();
  await teacherPage.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await teacherPage
    .getByText(/Processing|Waiting to process/)
    .first()
    .waitFor();

  const adminContext = await signedInContext(env.browser, env.server, admin.token, { width: 1280, height: 900 });
  const adminPage = await adminContext.newPage();
  await adminPage.goto(`${env.server.baseUrl}/admin`);
  await adminPage.getByRole('tab', { name: 'Server' }).click();
  const entry = adminPage.getByRole('listitem').filter({ hasText: 'long-cancel.mp4' });
  // The row names the job's type, the lecture and its class, not only the file.
  await entry.getByText('Video processing', { exact: true }).waitFor();
  await entry.getByText('Too long', { exact: true }).waitFor();
  await entry.getByText('in Cancel 101').waitFor();
  // Each job's state in plain words, what runs listed before what waits for it; never "attempt 0".
  await entry.getByText('Running (attempt 1)', { exact: true }).waitFor();
  const waitEntry = adminPage.getByRole('listitem').filter({ hasText: 'long-wait.mp4' });
  await waitEntry.getByText('Waiting', { exact: true }).waitFor();
  const rows = await adminPage.getByRole('listitem').allTextContents();
  const rowOf = (fileName: string) => rows.findIndex((text) => text.includes(fileName));
  expect(rowOf('long-cancel.mp4')).toBeGreaterThanOrEqual(0);
  expect(rowOf('long-cancel.mp4')).toBeLessThan(rowOf('long-wait.mp4'));
  expect(await adminPage.getByText(/attempt 0|queued/).count()).toBe(0);
  // The waiting one is not this test's to process: cancelled here, as the button does.
  const cancelWait = await apiClient(env.server.baseUrl)('POST', `/api/admin/videos/${waiting.json.videoId}/cancel`, {
    as: admin.token,
  });
  expect(cancelWait.status).toBe(200);
  await entry.getByRole('button', { name: 'Cancel processing of Too long' }).click();
  await adminPage
    .getByRole('dialog', { name: 'Cancel processing?' })
    .getByRole('button', { name: 'Stop processing' })
    .click();
  await entry.getByText('Cancelled', { exact: true }).waitFor();
  await entry.getByRole('button', { name: 'Retry' }).waitFor();
  await entry.getByText(/Processing was cancelled\. The teacher/).waitFor();
  await adminPage.getByText('Processing of "Too long" was cancelled.').waitFor();
  // The queue reads at every width (a phone opens the console afresh, as a phone would).
  for (const width of [1024, 768]) {
    await adminPage.setViewportSize({ width, height: 900 });
    await fits(adminPage, `admin-queue-${width}`);
  }
  const phoneContext = await signedInContext(env.browser, env.server, admin.token, { width: 375, height: 812 });
  const phone = await phoneContext.newPage();
  await phone.goto(`${env.server.baseUrl}/admin`);
  await phone.getByRole('tab', { name: 'Server' }).click();
  await phone.getByRole('listitem').filter({ hasText: 'long-cancel.mp4' }).getByText('Video processing').waitFor();
  await fits(phone, 'admin-queue-375');
  await phoneContext.close();

  // A student of the class reads that it is not available, with a placeholder, never a broken poster.
  const pupil = await createAccount(env.server, env.mail, 'Paul Pupil', 'student');
  await pupil.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const pupilContext = await signedInContext(env.browser, env.server, pupil.token, { width: 375, height: 812 });
  const pupilPage = await pupilContext.newPage();
  await pupilPage.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  const playlist = pupilPage.getByRole('region', { name: 'Course Playlist' });
  await playlist.getByText('Video not available yet').waitFor();
  await playlist.getByTestId('thumbnail-placeholder').waitFor();
  expect(
    await pupilPage.evaluate(
      () => [...document.querySelectorAll('img')].filter((img) => img.complete && img.naturalWidth === 0).length,
    ),
  ).toBe(0);
  expect(await pupilPage.getByText(/cancelled by an administrator/).count()).toBe(0);
  await pupilContext.close();

  // The teacher reads what happened, and can act on it: Retry (or delete the topic).
  // In the playlist (with Retry) and on the stage.
  const cancelled = teacherPage.getByText('Processing was cancelled by an administrator. Retry it or delete it.');
  await cancelled.first().waitFor();
  expect(await cancelled.count()).toBe(2);
  const [lecture] = await teacher.api('GET', `/api/lectures/course/${course._id}`);
  expect(lecture).toMatchObject({ processingStatus: 'failed', videoLink: null, video: { status: 'cancelled' } });
  await teacherPage.getByText('This video is not available yet.').waitFor();
  await fits(teacherPage, 'teacher-cancelled-lecture');
  await teacherPage.getByRole('button', { name: 'Retry' }).click();
  await teacherPage.getByText(/watchable/).waitFor({ timeout: 90_000 });
  const [retried] = await teacher.api('GET', `/api/lectures/course/${course._id}`);
  expect(retried).toMatchObject({ processingStatus: 'processing', processingError: null });
  await adminContext.close();
  await teacherContext.close();
}, 180_000);
