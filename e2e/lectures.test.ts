import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip } from '../src/test/fixtures';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

const env = e2eEnvironment();
const clips = mkdtempSync(join(tmpdir(), 'classroom-e2e-clips-'));

afterAll(async () => {
  rmSync(clips, { recursive: true, force: true });
});

test('a teacher adds a topic with a video, watches it get ready, renames it, replaces its video and deletes it', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Ada Lecturer', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Computing 101' });
  const first = await makeClip(clips, { width: 640, height: 360, seconds: 8, name: 'first.mp4' });
  const second = await makeClip(clips, { width: 480, height: 360, seconds: 4, name: 'second.mp4' });

  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Please provide both a topic name and a video file.').waitFor();
  await page.getByLabel('Topic Name').fill('The Analytical Engine');
  await page.getByLabel('Video File').setInputFiles(first);
  await page.getByRole('button', { name: 'Save', exact: true }).click();

  // The upload runs in the tray; the topic then shows its processing state, becomes ready (its length shows) and
  // plays.
  await page.getByTestId('upload-tray').waitFor();
  const playlist = page.getByRole('region', { name: 'Course Playlist' });
  const item = playlist.getByRole('listitem').filter({ hasText: 'The Analytical Engine' });
  await item.waitFor();
  await item.getByText(/Waiting to process|Processing \d+%|0:08/).waitFor();
  await screenshot(page, 'topic-processing');
  await item.getByText('0:08').waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Play', exact: true }).first().waitFor();
  expect(await item.locator('img').getAttribute('src')).toContain('/poster.jpg');
  await screenshot(page, 'topic-ready');

  await page.getByRole('button', { name: 'Actions for The Analytical Engine' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await page.getByRole('dialog').getByText('first.mp4').waitFor();
  await page.getByLabel('Topic Name').fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Please provide a topic name.').waitFor();
  await page.getByLabel('Topic Name').fill('Difference Engines');
  await page.getByLabel('Update video').check();
  await page.getByLabel('New video file').setInputFiles(second);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const renamed = playlist.getByRole('listitem').filter({ hasText: 'Difference Engines' });
  await renamed.getByText('0:04').waitFor({ timeout: 60_000 });
  const lectures = await teacher.api('GET', `/api/lectures/course/${course._id}`);
  expect(lectures).toHaveLength(1);
  expect(lectures[0].video.fileName).toBe('second.mp4');

  await page.getByRole('button', { name: 'Actions for Difference Engines' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByText('Are you sure you want to delete this lecture?').waitFor();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByText('No topics yet.').waitFor();
  // The empty class gives the teacher one clear call to action.
  await page.getByRole('button', { name: 'Add the first lecture' }).click();
  await page.getByRole('dialog', { name: 'Add New Topic' }).waitFor();
  await page.keyboard.press('Escape');
  expect(await teacher.api('GET', `/api/lectures/course/${course._id}`)).toEqual([]);
  await context.close();
});

test('a file that is not a video is refused at once, in plain words', async () => {
  const teacher = await createAccount(env.server, env.mail, 'Bad File Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Uploads' });
  const context = await signedInContext(env.browser, env.server, teacher.token);
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/classroom/${course._id}`);
  await page.getByRole('button', { name: 'Add New Topic' }).click();
  await page.getByLabel('Topic Name').fill('Oops');
  await page
    .getByLabel('Video File')
    .setInputFiles({ name: 'notes.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video at all') });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  // In the modal, and in the tray as an alert; no topic is made.
  await page.getByRole('dialog').getByText('This file is not a video we can play.').waitFor();
  await page.getByTestId('upload-tray').getByRole('alert').getByText('This file is not a video we can play.').waitFor();
  expect(await teacher.api('GET', `/api/lectures/course/${course._id}`)).toEqual([]);
  await context.close();
});
