/** The tray with real uploads: tus-js-client's browser build sends a real file to the real server. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { clipBytes } from '@test/lecture';
import { nativeFetch } from '@test/native-fetch';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { act, screen, within } from '@testing-library/react';
import { discardAllUploads, startUpload } from '../state/uploads';
import { UploadTray } from './UploadTray';

const server = realServer();
let teacher: Awaited<ReturnType<typeof server.signUp>>;
let courseId: string;
let clip: File;

beforeAll(async () => {
  await showToasts();
  const [account, bytes] = await Promise.all([server.signUp('teacher', 'Tray Teacher'), clipBytes()]);
  teacher = account;
  clip = new File([bytes], 'cells.mp4', { type: 'video/mp4' });
  const course = await server.api(
    'POST',
    '/api/courses',
    { courseName: 'Biology', teacherId: teacher.user._id },
    teacher.token,
  );
  courseId = course.json._id;
  signInAs(teacher);
});
afterAll(async () => {
  await discardAllUploads();
  await clearToasts();
});

const topicsOfCourse = async () =>
  (
    (await server.api('GET', `/api/lectures/course/${courseId}`, undefined, teacher.token)).json as {
      nameOfTopic: string;
    }[]
  ).map((lecture) => lecture.nameOfTopic);

test('a video goes up: the tray shows it running, then done, and the class has the new topic', async () => {
  const view = renderInApp(<UploadTray />);
  act(() => {
    startUpload(clip, { courseId, nameOfTopic: 'Cells' });
  });
  const tray = within(view.container);
  expect(await tray.findByRole('progressbar', { name: 'Upload of cells.mp4' })).toBeDefined();
  expect(await tray.findByText('Uploaded. It is being prepared for playback.')).toBeDefined();
  expect(tray.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  expect(await screen.findByText('Uploaded "Cells". It is being prepared for playback.')).toBeDefined();
  expect(await topicsOfCourse()).toContain('Cells');
});

/** What the server answers a tus client that sends `bytes` as a new topic's video (tus 1.0 by hand, Bun's fetch). */
async function serverAnswerTo(bytes: string, fileName: string) {
  const auth = { authorization: `Bearer ${teacher.token}`, 'tus-resumable': '1.0.0' };
  const metadata = { filename: fileName, filetype: 'video/mp4', courseId, nameOfTopic: 'Asked by hand' };
  const created = await nativeFetch(`${server.baseUrl}/api/uploads`, {
    method: 'POST',
    headers: {
      ...auth,
      'upload-length': String(bytes.length),
      'upload-metadata': Object.entries(metadata)
        .map(([key, value]) => `${key} ${btoa(value)}`)
        .join(','),
    },
  });
  const sent = await nativeFetch(new URL(created.headers.get('location')!, server.baseUrl), {
    method: 'PATCH',
    headers: { ...auth, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    body: bytes,
  });
  return { status: sent.status, message: ((await sent.json()) as { message: string }).message };
}

test("a file the server turns down is refused in the server's words, with no Retry and no topic", async () => {
  // Named and typed as a video, so the browser sends it; ffprobe on the server finds no video in it.
  const bytes = 'this is not a video at all';
  const answer = await serverAnswerTo(bytes, 'fake.mp4');
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  const view = renderInApp(<UploadTray />);
  act(() => {
    startUpload(new File([bytes], 'fake.mp4', { type: 'video/mp4' }), { courseId, nameOfTopic: 'Fake' });
  });
  const tray = within(view.container);
  const refusal = await tray.findByRole('alert');
  expect(refusal.textContent).toBe(answer.message);
  expect(tray.getByRole('button', { name: 'Remove fake.mp4 from the uploads' })).toBeDefined();
  expect(tray.queryByRole('button', { name: 'Retry' })).toBeNull();
  expect(await topicsOfCourse()).not.toContain('Fake');
});

test('Pause holds an upload (nothing reaches the class) and Resume finishes it', async () => {
  const view = renderInApp(<UploadTray />);
  const tray = within(view.container);
  act(() => {
    startUpload(new File([clip], 'paused.mp4', { type: 'video/mp4' }), { courseId, nameOfTopic: 'Paused topic' });
  });
  // Pressed at once: before tus-js-client has even loaded, so the upload is held before its first byte.
  act(() => tray.getByRole('button', { name: 'Pause upload of paused.mp4' }).click());
  // The rows of the earlier tests may still be in the tray: look in this upload's own row.
  const row = () => within(tray.getByText('paused.mp4').closest('li') as HTMLElement);
  expect(row().getByText(/· paused$/)).toBeDefined();
  expect(tray.getByText('1 upload paused')).toBeDefined();
  expect(tray.queryByRole('button', { name: 'Pause upload of paused.mp4' })).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(row().getByText(/· paused$/)).toBeDefined();
  expect(await topicsOfCourse()).not.toContain('Paused topic');

  act(() => tray.getByRole('button', { name: 'Resume upload of paused.mp4' }).click());
  expect(await row().findByText('Uploaded. It is being prepared for playback.')).toBeDefined();
  expect(await topicsOfCourse()).toContain('Paused topic');
});
