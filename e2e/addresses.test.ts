import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip } from '../src/test/fixtures';
import { waitForVideo } from '../src/test/wait';
import { e2eEnvironment } from './environment';
import { createAccount } from './server';

const PUBLIC_URL = 'https://class.school.example';
const env = e2eEnvironment({ TEACHER_SIGNUP: 'open', PUBLIC_URL });
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-addresses-'));
let teacher: Awaited<ReturnType<typeof createAccount>>;
let courseId: string;
let inviteCode: string;

beforeAll(async () => {
  teacher = await createAccount(env.server, env.mail, 'Address Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Anywhere 101' });
  courseId = course._id;
  inviteCode = course.inviteCode;
  const form = new FormData();
  form.append('uploadedFile', Bun.file(await makeClip(clips, { width: 640, height: 360, seconds: 4 })), 'a.mp4');
  form.append('courseId', courseId);
  form.append('nameOfTopic', 'Plays everywhere');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  await waitForVideo('the uploaded clip', () => teacher.api('GET', `/api/videos/${uploaded.videoId}`), {
    until: 'playable',
  });
});
afterAll(() => rmSync(clips, { recursive: true, force: true }));

test('with PUBLIC_URL set to a third name, the lecture plays at localhost and at 127.0.0.1; sharing uses PUBLIC_URL', async () => {
  const port = new URL(env.server.baseUrl).port;
  for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'token', value: teacher.token, url: origin }]);
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on('requestfailed', (request) => blocked.push(request.url()));
    await page.goto(`${origin}/classroom/${courseId}`);
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, {
      timeout: 30_000,
    });
    expect(blocked.filter((url) => url.includes(PUBLIC_URL))).toEqual([]);

    await page.getByRole('button', { name: 'Share Classroom' }).click();
    const linkField = page.getByLabel('Invite link', { exact: true });
    await page.waitForFunction(() => (document.querySelector('#invite-link') as HTMLInputElement | null)?.value);
    const link = await linkField.inputValue();
    expect({ origin, link }).toEqual({ origin, link: `${PUBLIC_URL}/join/${inviteCode}` });
    expect(await page.getByTestId('share-warning').count()).toBe(0);
    await context.close();
  }
});
