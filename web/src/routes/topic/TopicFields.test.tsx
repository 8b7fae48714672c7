import { beforeEach, expect, test } from 'bun:test';
import { LIMITS } from '@contract/limits';
import { appStore } from '@lib/store';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { useState } from 'react';
import { type UploadItem, uploadsAtom } from '../../features/uploads/state/uploads';
import { DescriptionField, TopicNameField, UploadProgress, VideoFileField } from './TopicFields';

beforeEach(() => appStore.set(uploadsAtom, []));

function Fields({ disabled = false }: { disabled?: boolean }) {
  const [name, setName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  return (
    <>
      <TopicNameField value={name} onChange={setName} disabled={disabled} />
      <VideoFileField label="Video Files" onChange={setFiles} disabled={disabled} multiple />
      <output aria-label="Chosen">{files.map((file) => file.name).join(', ')}</output>
    </>
  );
}

test('the topic name is labelled and stops at the shared limit', async () => {
  const user = userEvent.setup();
  render(<Fields />);
  const name = screen.getByLabelText('Topic Name') as HTMLInputElement;
  expect(name.maxLength).toBe(LIMITS.topicNameMax);
  await user.click(name);
  await user.paste('t'.repeat(LIMITS.topicNameMax + 10));
  expect(name.value).toHaveLength(LIMITS.topicNameMax);
});

test('the file field takes videos, several at once, and hands over what was picked', async () => {
  const user = userEvent.setup();
  render(<Fields />);
  const input = screen.getByLabelText('Video Files') as HTMLInputElement;
  expect(input.accept).toBe('video/*');
  expect(input.multiple).toBe(true);
  await user.upload(input, [
    new File(['a'], 'week-1.mp4', { type: 'video/mp4' }),
    new File(['b'], 'week-2.mov', { type: 'video/quicktime' }),
  ]);
  expect(screen.getByLabelText('Chosen').textContent).toBe('week-1.mp4, week-2.mov');
});

test('while sending, both fields are disabled', () => {
  render(<Fields disabled />);
  expect((screen.getByLabelText('Topic Name') as HTMLInputElement).disabled).toBe(true);
  expect((screen.getByLabelText('Video Files') as HTMLInputElement).disabled).toBe(true);
});

const item = (patch: Partial<UploadItem>): UploadItem => ({
  key: 'upload-x',
  fileName: 'week-1.mp4',
  topicName: 'Week 1',
  size: 1000,
  sent: 0,
  speed: null,
  status: 'uploading',
  error: null,
  courseId: 'c',
  lectureId: null,
  ...patch,
});

test("the modal's upload line follows the tray: percent, a failure's words, a refusal with no bar", () => {
  render(
    <Provider store={appStore}>
      <UploadProgress uploadKey="upload-x" />
    </Provider>,
  );
  expect(screen.queryByRole('progressbar')).toBeNull();
  act(() => appStore.set(uploadsAtom, [item({ sent: 420 })]));
  expect(screen.getByText('Uploading: 42%')).toBeDefined();
  expect(screen.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuenow')).toBe('42');
  expect(screen.getByText('You can close this window: the upload goes on in the uploads tray.')).toBeDefined();
  act(() =>
    appStore.set(uploadsAtom, [item({ sent: 420, status: 'failed', error: 'The connection to the server was lost.' })]),
  );
  expect(screen.getByText('The connection to the server was lost.')).toBeDefined();
  act(() => appStore.set(uploadsAtom, [item({ status: 'refused', error: 'This file is too large.' })]));
  expect(screen.getByRole('alert').textContent).toBe('This file is too large.');
  expect(screen.queryByRole('progressbar')).toBeNull();
});

function Description({ error }: { error: string }) {
  const [description, setDescription] = useState('');
  return <DescriptionField value={description} onChange={setDescription} disabled={false} error={error} />;
}

test('the description is labelled, stops at the shared limit, says what timed lines do and announces a refusal', async () => {
  const user = userEvent.setup();
  const { rerender } = render(<Description error="" />);
  const field = screen.getByLabelText('Description (optional)') as HTMLTextAreaElement;
  expect(field.maxLength).toBe(LIMITS.descriptionMax);
  const hint = 'Lines that start with a time, such as 0:00 Introduction, become chapters.';
  expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(hint);
  expect(field.getAttribute('aria-invalid')).toBeNull();
  await user.type(field, '0:00 Start{Enter}0:20 End');
  expect(field.value).toBe('0:00 Start\n0:20 End');

  const refusal = 'Line 2: 0:20 is past the end of the video (0:12).';
  rerender(<Description error={refusal} />);
  expect(screen.getByRole('alert').textContent).toBe(refusal);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')).toContain(screen.getByRole('alert').id);
});
