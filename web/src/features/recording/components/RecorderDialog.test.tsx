import { expect, test } from 'bun:test';
import { renderInApp } from '@test/render';
import { screen } from '@testing-library/react';
import { RecorderDialog } from './RecorderDialog';

const limits = { maxRecordingMinutes: 120, maxUploadBytes: 10_000_000 };

test('a browser that cannot record says so in words, with what to do, and Start stays off', async () => {
  // happy-dom has no camera, no MediaRecorder and no secure context: as an old browser on plain http.
  renderInApp(
    <RecorderDialog
      open
      courseId="course-x"
      nameOfTopic="Optics"
      userId="teacher-1"
      limits={limits}
      onClose={() => {}}
    />,
  );
  const dialog = await screen.findByRole('dialog', { name: 'Record a lecture' });
  expect(dialog).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toMatch(/secure address|cannot record video/);
  expect((screen.getByRole('button', { name: 'Start recording' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByRole('radio', { name: 'Screen with camera bubble' })).toBeTruthy();
});
