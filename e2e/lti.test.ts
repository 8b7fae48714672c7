/**
 * LTI 1.3 in Chromium (issue 35): the test LMS (src/test/lti-platform.ts, on 127.0.0.2) shows the app (on
 * localhost) in an iframe, so the frame is cross-site, as in a real LMS. A student launches from the LMS's page and
 * the lecture plays inside the frame with no other sign-in. The test LMS keeps the login's state in its Platform
 * Storage too (lti_storage_target=_parent); with cookies the state cookie is what binds the launch.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { makeClip } from '../src/test/fixtures';
import { apiClient } from '../src/test/harness';
import { type LtiPlatform, ROLES, startLtiPlatform } from '../src/test/lti-platform';
import { startMailCapture } from '../src/test/mail-capture';
import { freePort } from '../src/test/oidc-provider';
import { waitForVideo } from '../src/test/wait';
import { launchBrowser, seriousA11yFindings } from './browser';
import { createAccount, type RunningServer, screenshot, signedInContext, startServer } from './server';
import { launchWebKit, type WebKit } from './webkit';

const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-lti-'));
let server: RunningServer;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
let lms: LtiPlatform;
let browser: Browser;
let toolUrl: string;
let courseId: string;
let lectureId: string;
let adminToken: string;

beforeAll(async () => {
  mail = await startMailCapture();
  const port = await freePort();
  // localhost for the app, 127.0.0.2 for the LMS: two sites, as a school's Moodle and this server are.
  toolUrl = `http://localhost:${port}`;
  server = await startServer({
    env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open', PORT: String(port), PUBLIC_URL: toolUrl },
  });
  const admin = await createAccount(server, mail, 'Lti Admin', 'teacher');
  adminToken = admin.token;
  lms = await startLtiPlatform();
  await lms.register(apiClient(server.baseUrl), admin.token, toolUrl);
  // The teacher's first launch makes the class; a ready clip lecture goes in it.
  const teacherLaunch = await lms.playLaunch(
    toolUrl,
    lms.prepareLaunch({
      sub: 'e2e-teacher',
      name: 'Frame Teacher',
      roles: [ROLES.instructor],
      context: { id: 'e2e-course', title: 'Framed 101' },
    }),
  );
  expect(teacherLaunch.status).toBe(200);
  const teacher = apiClient(server.baseUrl);
  const as = teacherLaunch.token as string;
  courseId = /\/classroom\/([^?]+)/.exec(teacherLaunch.destination ?? '')?.[1] as string;
  const form = new FormData();
  form.append(
    'uploadedFile',
    Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 12, name: 'lti.mp4' })),
  );
  form.append('courseId', courseId);
  form.append('nameOfTopic', 'Framed lecture');
  const uploaded = (await teacher('POST', '/api/upload', { as, body: form })).json;
  lectureId = uploaded.lectureId;
  await waitForVideo(
    'Framed lecture',
    async () => (await teacher('GET', `/api/videos/${uploaded.videoId}`, { as })).json,
  );
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  lms?.close();
  await server?.stop();
  await mail?.close();
  rmSync(clips, { recursive: true, force: true });
});

test('Chromium, inside the LMS’s cross-site iframe: a student launches and the lecture plays, no other sign-in', async () => {
  const hint = lms.prepareLaunch({
    sub: 'e2e-student',
    name: 'Frame Student',
    roles: [ROLES.learner],
    context: { id: 'e2e-course', title: 'Framed 101' },
    resourceLink: { id: 'e2e-link' },
    custom: { lecture_id: lectureId },
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(lms.coursePageUrl(hint));
  const frame = page.frameLocator('iframe[title="Classroom"]');
  const player = frame.getByTestId('video-player');
  await player.waitFor({ timeout: 30_000 });
  await expect(frame.getByRole('heading', { name: 'Framed lecture' }).first().isVisible()).resolves.toBe(true);
  await frame.getByRole('button', { name: /play/i }).first().click();
  const tool = page.frames().find((candidate) => candidate.url().startsWith(toolUrl));
  expect(tool).toBeDefined();
  await tool?.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, {
    timeout: 30_000,
  });
  await screenshot(page, 'lti-chromium-iframe');
  await context.close();
  // Chromium keeps the partitioned state cookie in the frame: that is what bound this launch.
  expect(server.logs()).toContain('"binding":"cookie"');
});

test('WebKit, third-party cookies blocked: the launch is bound through Platform Storage, and the lecture plays', async () => {
  let webkit: WebKit | undefined;
  try {
    webkit = await launchWebKit('mse');
    const hint = lms.prepareLaunch({
      sub: 'e2e-safari',
      name: 'Safari Student',
      roles: [ROLES.learner],
      context: { id: 'e2e-course', title: 'Framed 101' },
      resourceLink: { id: 'e2e-link' },
      custom: { lecture_id: lectureId },
    });
    await webkit.navigate(lms.coursePageUrl(hint));
    await webkit.find('iframe[title="Classroom"]');
    await webkit.frame(0);
    const browser = webkit;
    await browser.waitFor(
      'the lecture in the frame',
      () => !!document.querySelector('[data-testid="video-player"]'),
      [],
      45_000,
    );
    expect(await browser.run(() => document.cookie.includes('token='))).toBe(false);
    await browser.run(() => {
      const video = document.querySelector('video') as HTMLVideoElement;
      video.muted = true;
      return video.play().then(() => true);
    });
    await browser.waitFor(
      'playback in the frame',
      () => (document.querySelector('video')?.currentTime ?? 0) > 1,
      [],
      45_000,
    );
    await browser.frame(null);
    await browser.screenshot('lti-webkit-iframe');
    expect(server.logs()).toContain('"binding":"platform-storage"');
  } finally {
    await webkit?.close();
  }
});

test('the console’s LMS tab lists the test LMS and makes a one-time registration URL', async () => {
  const context = await signedInContext(browser, server, adminToken);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/admin`);
  await page.getByRole('tab', { name: 'LMS' }).click();
  await page.getByText('Test LMS', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Make a registration URL' }).click();
  const url = await page.getByLabel('Registration URL').inputValue();
  expect(url).toStartWith(`${toolUrl}/api/lti/register?key=`);
  expect(await seriousA11yFindings(page)).toEqual([]);
  await screenshot(page, 'lti-admin-tab');
  await context.close();
});
