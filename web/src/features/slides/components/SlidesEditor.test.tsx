import { afterEach, expect, test } from 'bun:test';
import { queryClient } from '@api/query-client';
import type { LectureJson as Lecture } from '@contract/lectures';
import { renderInApp } from '@test/render';
import { screen, within } from '@testing-library/react';
import { type SlideIndex, slideIndexQuery } from '../api/slides';
import { SlidesEditor } from './SlidesEditor';

afterEach(() => queryClient.clear());

const lecture = { _id: 'l1', courseId: 'c1', video: { _id: 'v1' } } as unknown as Lecture;
const slides = Array.from({ length: 6 }, (_, index) => ({
  id: `s${index + 1}`,
  seconds: index * 20,
  thumbnail: `/t/${index + 1}.webp`,
  text: index === 2 ? '' : `Words on slide ${index + 1}`,
  title: null,
  hidden: false,
}));

test('each of the six Save buttons says which slide it saves; the thumbnails show the whole slide, named', () => {
  // Stand-in: the slide index as the server lists it (the index job needs ffmpeg and a worker; e2e/slides.test.ts
  // makes a real one and saves a title through these buttons).
  queryClient.setQueryData<SlideIndex>(slideIndexQuery('l1', 'v1').queryKey, { state: 'ready', slides });
  renderInApp(<SlidesEditor lecture={lecture} />);
  const list = screen.getByRole('list', { name: 'Slides of this lecture' });
  const saves = within(list).getAllByRole('button', { name: /^Save/ });
  expect(saves.map((button) => button.getAttribute('aria-label'))).toEqual(
    slides.map((_, index) => `Save slide ${index + 1}`),
  );
  const images = within(list).getAllByRole('img');
  expect(images[1]?.getAttribute('alt')).toBe('Slide 2: Words on slide 2, at 0:20');
  expect(images[2]?.getAttribute('alt')).toBe('Slide 3, at 0:40');
  expect(images.every((image) => image.className.includes('object-contain'))).toBe(true);
  // The box keeps 16:9 in its row (a stretched box had cropped the slide's sides).
  expect(images.every((image) => image.parentElement?.className.includes('self-start'))).toBe(true);
});
