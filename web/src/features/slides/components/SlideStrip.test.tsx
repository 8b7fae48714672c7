import { expect, test } from 'bun:test';
import { playerClockAtom } from '@lib/playback';
import { render, screen, within } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import type { Slide } from '../api/slides';
import { SlideStrip } from './SlideStrip';

const slides: Slide[] = [
  { seconds: 0, thumbnail: '/t/1.webp', text: 'Photosynthesis', title: null },
  { seconds: 45, thumbnail: '/t/2.webp', text: 'Chlorophyll absorbs red and blue light', title: null },
  { seconds: 90, thumbnail: '/t/3.webp', text: '', title: null },
  { seconds: 130, thumbnail: '/t/4.webp', text: 'ignored words', title: 'Summary' },
];

test("each slide's button is named by its place, its words and its time; the one at the clock is marked", () => {
  const store = createStore();
  // A returning student before Play: the clock is the resume point.
  store.set(playerClockAtom, 50);
  render(
    <Provider store={store}>
      <SlideStrip slides={slides} />
    </Provider>,
  );
  const buttons = within(screen.getByRole('list', { name: 'Slides' })).getAllByRole('button');
  expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
    'Slide 1: Photosynthesis, at 0:00',
    'Slide 2: Chlorophyll absorbs red and blue light, at 0:45',
    'Slide 3, at 1:30',
    'Slide 4: Summary, at 2:10',
  ]);
  expect(screen.getByRole('button', { name: 'Slide 2: Chlorophyll absorbs red and blue light, at 0:45' })).toBe(
    buttons[1]!,
  );
  expect(buttons.map((button) => button.getAttribute('aria-current'))).toEqual([null, 'true', null, null]);
});
