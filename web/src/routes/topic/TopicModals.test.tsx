import { beforeEach, expect, test } from 'bun:test';
import { appStore } from '@lib/store';
import { renderInApp } from '@test/render';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { uploadsAtom } from '../../features/uploads/state/uploads';
import { AddTopicModal } from './TopicModals';

beforeEach(() => appStore.set(uploadsAtom, []));

const noop = () => {};

test('Add New Topic: "both a name and a file" goes away once both are there, and nothing was uploaded', async () => {
  const user = userEvent.setup({ delay: null });
  renderInApp(<AddTopicModal courseId="course-x" open onClose={noop} onAdded={noop} />);
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(screen.getByRole('alert').textContent).toBe('Please provide both a topic name and a video file.');

  await user.type(screen.getByLabelText('Topic Name'), 'Week 1');
  // One of the two is still missing: the reminder stays.
  expect(screen.getByRole('alert').textContent).toBe('Please provide both a topic name and a video file.');
  await user.upload(screen.getByLabelText('Video File'), new File(['a'], 'week-1.mp4', { type: 'video/mp4' }));
  expect(screen.queryByRole('alert')).toBeNull();
  expect(appStore.get(uploadsAtom)).toEqual([]);
});

test('Add New Topic with several files: "give every topic a name" goes away once each has one again', async () => {
  const user = userEvent.setup({ delay: null });
  renderInApp(<AddTopicModal courseId="course-x" open onClose={noop} onAdded={noop} />);
  await user.upload(screen.getByLabelText('Video File'), [
    new File(['a'], 'week-1.mp4', { type: 'video/mp4' }),
    new File(['b'], 'week-2.mp4', { type: 'video/mp4' }),
  ]);
  const second = screen.getByLabelText('Topic name for week-2.mp4');
  await user.clear(second);
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(screen.getByRole('alert').textContent).toBe('Please give every topic a name.');
  await user.type(second, 'Week two');
  expect(screen.queryByRole('alert')).toBeNull();
  expect(appStore.get(uploadsAtom)).toEqual([]);
});
