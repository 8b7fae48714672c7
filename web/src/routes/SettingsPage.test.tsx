import { afterEach, beforeAll, expect, test } from 'bun:test';
import { sessionAtom } from '@lib/session';
import { appStore } from '@lib/store';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { type UploadItem, uploadsAtom } from '../features/uploads/state/uploads';
import { SettingsPage } from './SettingsPage';

const server = realServer();
beforeAll(showToasts);
let teacher: Awaited<ReturnType<typeof server.signUp>>;
let student: typeof teacher;
beforeAll(async () => {
  // The teacher stays in the first test and leaves in the second; the student leaves in the last.
  [teacher, student] = await Promise.all([
    server.signUp('teacher', 'Settings Teacher'),
    server.signUp('student', 'Settings Student'),
  ]);
});
afterEach(clearToasts);

/** An upload under way, as the tray's state holds it while tus-js-client sends. */
const running: UploadItem = {
  key: 'upload-running',
  fileName: 'lecture-3.mp4',
  topicName: 'Lecture 3',
  size: 100,
  sent: 40,
  speed: null,
  status: 'uploading',
  error: null,
  courseId: 'course-1',
  lectureId: null,
};

function renderSettings() {
  renderInApp(
    <Routes>
      <Route path="/settings" element={<SettingsPage />} />
      <Route path="/login" element={<h1>Log in page</h1>} />
    </Routes>,
    '/settings',
  );
}

const tokenWorks = async (token: string) => (await server.api('GET', '/api/users', undefined, token)).status === 200;

test('logging out while an upload runs asks first; staying keeps the session and the upload', async () => {
  const user = userEvent.setup({ delay: null });
  const account = teacher;
  signInAs(account);
  appStore.set(uploadsAtom, [running]);
  renderSettings();
  await user.click(screen.getByRole('button', { name: 'Logout' }));
  const dialog = screen.getByRole('dialog', { name: 'Uploads are still running' });
  expect(dialog.textContent).toContain('Logging out stops them and deletes what was sent. Stay to let them finish.');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('heading', { name: 'Settings' })).toBeDefined();
  expect(appStore.get(uploadsAtom)).toEqual([running]);
  expect(appStore.get(sessionAtom).status).toBe('authenticated');
  expect(await tokenWorks(account.token)).toBe(true);
});

test('confirming stops the uploads, ends the session on the server and goes to the sign-in page', async () => {
  const user = userEvent.setup({ delay: null });
  const account = teacher;
  signInAs(account);
  appStore.set(uploadsAtom, [running]);
  renderSettings();
  await user.click(screen.getByRole('button', { name: 'Logout' }));
  await user.click(screen.getByRole('button', { name: 'Stop uploads and log out' }));
  expect(await screen.findByRole('heading', { name: 'Log in page' })).toBeDefined();
  expect(await screen.findByText('Logged out successfully')).toBeDefined();
  expect(appStore.get(uploadsAtom)).toEqual([]);
  expect(appStore.get(sessionAtom).status).toBe('signed-out');
  expect(await tokenWorks(account.token)).toBe(false);
});

test('with no upload running, Logout does not ask', async () => {
  const user = userEvent.setup({ delay: null });
  signInAs(student);
  act(() => appStore.set(uploadsAtom, []));
  renderSettings();
  await user.click(screen.getByRole('button', { name: 'Logout' }));
  expect(screen.queryByRole('dialog', { name: 'Uploads are still running' })).toBeNull();
  expect(await screen.findByRole('heading', { name: 'Log in page' })).toBeDefined();
});
