import { beforeAll, expect, test } from 'bun:test';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueueEntry } from '../api/admin';
import { JobQueue } from './JobQueue';

const server = realServer();
let teacher: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  teacher = await server.signUp('teacher', 'Queue Watcher');
});

const running: QueueEntry = {
  _id: 'job-1',
  type: 'transcode',
  typeName: 'Video processing',
  state: 'running',
  attempts: 1,
  lastError: null,
  videoId: 'video-running-1',
  fileName: 'week-1.mp4',
  videoStatus: 'processing',
  lectureTitle: 'Week 1',
  courseId: 'course-1',
  className: 'Physics',
  recipients: null,
  createdAt: new Date().toISOString(),
};
const cancelPath = `/api/admin/videos/${running.videoId}/cancel`;

// A real server's answer and two dialogs: on a loaded 2-core machine this took over the default 20 s.
test('Cancel on a running processing asks first: backing out sends nothing, confirming sends one cancel', async () => {
  const user = userEvent.setup({ delay: null });
  signInAs(teacher);
  const before = await server.requests('POST', cancelPath);
  renderInApp(<JobQueue queue={[running]} />);
  await user.click(screen.getByRole('button', { name: 'Cancel processing of Week 1' }));
  const dialog = screen.getByRole('dialog', { name: 'Cancel processing?' });
  expect(dialog.textContent).toContain('Processing of "Week 1" stops');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(await server.requests('POST', cancelPath)).toBe(before);

  await user.click(screen.getByRole('button', { name: 'Cancel processing of Week 1' }));
  await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop processing' }));
  // No such job runs on this server (it answers 409): what matters here is that one request went.
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 10_000 });
  expect(await server.requests('POST', cancelPath)).toBe(before + 1);
}, 45_000);
