import { expect, test } from 'bun:test';
import { seekRequestAtom } from '@lib/playback';
import { appStore } from '@lib/store';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { LectureDescription } from './LectureDescription';

const renderDescription = (description: string) =>
  render(
    <Provider store={appStore}>
      <LectureDescription description={description} />
    </Provider>,
  );

test('a short description shows whole, line by line; its timed lines (chapters) jump the player there', async () => {
  const user = userEvent.setup();
  renderDescription('Plan for today\n0:00 Introduction\n1:05 Worked example');
  const shown = screen.getByTestId('lecture-description');
  expect([...shown.children].map((line) => line.textContent)).toEqual([
    'Plan for today',
    '0:00 Introduction',
    '1:05 Worked example',
  ]);
  expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Play from 1:05' }));
  expect(appStore.get(seekRequestAtom)?.seconds).toBe(65);
});

test('one timed line is text, as on the server; an empty description shows nothing', () => {
  const { unmount } = renderDescription('We start at 0:00 sharp.\n12:30 is the break');
  expect(screen.queryAllByRole('button')).toEqual([]);
  unmount();
  renderDescription('  \n ');
  expect(screen.queryByTestId('lecture-description')).toBeNull();
});

test('a long description is folded after a few lines, Show more opens it all and Show less folds it again', async () => {
  const user = userEvent.setup();
  const lines = Array.from({ length: 8 }, (_, index) => `Line number ${index + 1}`);
  renderDescription(lines.join('\n'));
  const shown = screen.getByTestId('lecture-description');
  expect(shown.children.length).toBeLessThan(lines.length);
  expect(shown.textContent).not.toContain('Line number 8');
  const more = screen.getByRole('button', { name: 'Show more' });
  expect(more.getAttribute('aria-expanded')).toBe('false');
  await user.click(more);
  expect([...shown.children].map((line) => line.textContent)).toEqual(lines);
  await user.click(screen.getByRole('button', { name: 'Show less' }));
  expect(shown.textContent).not.toContain('Line number 8');
});
