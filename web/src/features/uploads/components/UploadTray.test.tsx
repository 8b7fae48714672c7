import { afterEach, beforeEach, expect, test } from 'bun:test';
import { appStore } from '@lib/store';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { discardAllUploads, startUpload, type UploadItem, uploadsAtom } from '../state/uploads';
import { UploadTray } from './UploadTray';

const MB = 1024 * 1024;

/** One row of the tray as the upload state writes it (tus-js-client's callbacks patch these fields). */
const upload = (patch: Partial<UploadItem> & Pick<UploadItem, 'key' | 'fileName'>): UploadItem => ({
  topicName: '',
  size: 100 * MB,
  sent: 0,
  speed: null,
  status: 'uploading',
  error: null,
  courseId: 'course-1',
  lectureId: null,
  ...patch,
});

/** Sets the tray's uploads as the state module does, outside React. */
const setUploads = (items: UploadItem[]) => act(() => appStore.set(uploadsAtom, items));

let view: ReturnType<typeof render>;

async function renderTray() {
  view = render(
    <Provider store={appStore}>
      <UploadTray />
    </Provider>,
  );
  // The tray reads this browser's interrupted uploads on mount: let that finish before a test looks.
  await act(() => Bun.sleep(0));
  return view;
}

/** The tray, by its landmark: other regions (the app's toasts) may be on the page too. */
const tray = () => within(view.container).getByRole('region');
const noTray = () => within(view.container).queryByRole('region') === null;
const row = (name: string) => screen.getByText(name).closest('li')!;

beforeEach(() => {
  localStorage.clear();
  appStore.set(uploadsAtom, []);
});
afterEach(async () => {
  await act(async () => {
    await discardAllUploads();
  });
});

test('shows nothing while there is no upload', async () => {
  await renderTray();
  expect(noTray()).toBe(true);
});

test('an upload shows its topic, file, progress, speed and time left', async () => {
  await renderTray();
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', topicName: 'Cells', sent: 25 * MB, speed: 2 * MB })]);
  expect(within(tray()).getByRole('heading').textContent).toBe('Uploading 1 video');
  const bar = screen.getByRole('progressbar', { name: 'Upload of cells.mp4' });
  expect(bar.getAttribute('aria-valuenow')).toBe('25');
  const cells = row('Cells');
  expect(within(cells).getByText('cells.mp4')).toBeDefined();
  // 75 MB left at 2 MB/s: 37.5 s.
  expect(within(cells).getByText('25% of 100 MB · 2 MB/s · less than a minute left')).toBeDefined();
});

test('progress moves as bytes are sent, and the last byte turns into "Checking the video…"', async () => {
  await renderTray();
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 10 * MB })]);
  expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10');
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 60 * MB })]);
  expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60');
  expect(screen.getByText('60% of 100 MB')).toBeDefined();
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 100 * MB, status: 'finishing' })]);
  expect(screen.getByText('Checking the video…')).toBeDefined();
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 100 * MB, status: 'done' })]);
  expect(screen.getByText('Uploaded. It is being prepared for playback.')).toBeDefined();
  // A finished upload has nothing to cancel.
  expect(screen.queryByRole('button', { name: 'Cancel upload of cells.mp4' })).toBeNull();
});

test('a dropped connection shows the upload reconnecting, still counted as running', async () => {
  await renderTray();
  setUploads([
    upload({
      key: 'a',
      fileName: 'cells.mp4',
      sent: 40 * MB,
      status: 'retrying',
      error: 'The connection to the server was lost.',
    }),
  ]);
  expect(screen.getByText('40% · reconnecting…')).toBeDefined();
  expect(within(tray()).getByRole('heading').textContent).toBe('Uploading 1 video');
  expect(screen.queryByRole('button', { name: /Retry/ })).toBeNull();
});

test('a failed upload says why in words and offers Retry; the heading says it stopped', async () => {
  await renderTray();
  setUploads([
    upload({
      key: 'a',
      fileName: 'cells.mp4',
      sent: 40 * MB,
      status: 'failed',
      error: 'You are offline. The upload goes on when the connection is back.',
    }),
  ]);
  const cells = row('cells.mp4');
  expect(within(cells).getByRole('alert').textContent).toBe(
    'You are offline. The upload goes on when the connection is back.',
  );
  expect(within(cells).getByRole('button', { name: 'Retry' })).toBeDefined();
  expect(within(tray()).getByRole('heading').textContent).toBe('1 upload stopped');
  // What was sent stays visible.
  expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
});

test('a file that is not a video is refused at once, in words, with nothing to retry', async () => {
  const user = userEvent.setup();
  await renderTray();
  act(() => {
    startUpload(new File(['some notes'], 'notes.txt', { type: 'text/plain' }), {
      courseId: 'course-1',
      nameOfTopic: 'Week 1',
    });
  });
  expect(screen.getByRole('alert').textContent).toBe(
    '"notes.txt" is not a video. Please choose a video file (such as MP4, MOV or WebM).',
  );
  expect(within(tray()).getByRole('heading').textContent).toBe('1 file refused');
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Remove notes.txt from the uploads' }));
  expect(noTray()).toBe(true);
});

test('"Clear finished" takes done and refused uploads away and leaves running and failed ones', async () => {
  const user = userEvent.setup();
  await renderTray();
  setUploads([
    upload({ key: 'a', fileName: 'done.mp4', status: 'done', sent: 100 * MB }),
    upload({ key: 'b', fileName: 'bad.mp4', status: 'refused', error: 'This file is not a video we can play.' }),
    upload({ key: 'c', fileName: 'running.mp4', sent: 5 * MB }),
    upload({ key: 'd', fileName: 'stopped.mp4', status: 'failed', error: 'The connection to the server was lost.' }),
  ]);
  await user.click(screen.getByRole('button', { name: 'Clear finished' }));
  expect(screen.queryByText('done.mp4')).toBeNull();
  expect(screen.queryByText('bad.mp4')).toBeNull();
  expect(screen.getByText('running.mp4')).toBeDefined();
  expect(screen.getByText('stopped.mp4')).toBeDefined();
  expect(screen.queryByRole('button', { name: 'Clear finished' })).toBeNull();
});

test('Cancel asks first: keeping the upload leaves it running, confirming takes it off the tray', async () => {
  const user = userEvent.setup();
  await renderTray();
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 30 * MB })]);
  await user.click(screen.getByRole('button', { name: 'Cancel upload of cells.mp4' }));
  const dialog = screen.getByRole('dialog', { name: 'Cancel this upload?' });
  expect(dialog.textContent).toContain('cells.mp4 stops uploading and what was sent is deleted.');
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(screen.queryByRole('dialog')).toBeNull();
  expect(screen.getByRole('progressbar', { name: 'Upload of cells.mp4' })).toBeDefined();

  await user.click(screen.getByRole('button', { name: 'Cancel upload of cells.mp4' }));
  await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
  await waitFor(() => expect(noTray()).toBe(true));
});

test('hiding the list keeps the overall percent in the heading', async () => {
  const user = userEvent.setup();
  await renderTray();
  setUploads([
    upload({ key: 'a', fileName: 'one.mp4', sent: 20 * MB }),
    upload({ key: 'b', fileName: 'two.mp4', sent: 60 * MB }),
  ]);
  await user.click(screen.getByRole('button', { name: 'Hide uploads' }));
  expect(screen.queryByRole('progressbar')).toBeNull();
  expect(within(tray()).getByRole('heading').textContent).toBe('Uploading 2 videos · 40%');
  const show = screen.getByRole('button', { name: 'Show uploads' });
  expect(show.getAttribute('aria-expanded')).toBe('false');
  await user.click(show);
  expect(screen.getAllByRole('progressbar')).toHaveLength(2);
});

test('leaving the page asks first while an upload runs, and not once none runs', async () => {
  await renderTray();
  const leave = () => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };
  setUploads([upload({ key: 'a', fileName: 'cells.mp4', sent: 30 * MB })]);
  expect(leave()).toBe(true);
  setUploads([
    upload({ key: 'a', fileName: 'cells.mp4', status: 'failed', error: 'The connection to the server was lost.' }),
  ]);
  expect(leave()).toBe(false);
});

test("an upload a reload cut short is listed from this browser's storage, and Forget drops it", async () => {
  const user = userEvent.setup();
  // What tus-js-client keeps in localStorage for an unfinished upload.
  localStorage.setItem(
    'tus::tus-br-cells.mp4-video/mp4-1000-1::1',
    JSON.stringify({
      size: 100 * MB,
      metadata: { filename: 'cells.mp4', nameOfTopic: 'Cells', courseId: 'course-1' },
      creationTime: new Date().toString(),
      uploadUrl: 'http://localhost/api/uploads/u1',
    }),
  );
  await renderTray();
  const cells = row('Cells');
  expect(cells.textContent).toContain('Interrupted. Choose cells.mp4 again to go on where it stopped.');
  expect(within(cells).getByLabelText('Choose file')).toBeDefined();
  await user.click(within(cells).getByRole('button', { name: 'Forget' }));
  await waitFor(() => expect(noTray()).toBe(true));
  expect(localStorage.length).toBe(0);
});
