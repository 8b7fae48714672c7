import { afterEach, beforeAll, expect, test } from 'bun:test';
import { onlineManager } from '@tanstack/react-query';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { offlineMessage } from '@ui/QueryState';
import { Route, Routes } from 'react-router';
import { SearchPage } from './SearchPage';

const server = realServer();
let teacher: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  teacher = await server.signUp('teacher', 'Search Page Teacher');
  const course = await server.api('POST', '/api/courses', { courseName: 'Biology 202' }, teacher.token);
  for (const nameOfTopic of ['Cell respiration', 'Mitosis and meiosis']) {
    const lecture = await server.api(
      'POST',
      '/api/lectures',
      { courseId: course.json._id, nameOfTopic },
      teacher.token,
    );
    expect(lecture.status).toBe(201);
  }
});
afterEach(() => onlineManager.setOnline(true));

const hits = () => screen.queryAllByTestId('search-hit').map((hit) => hit.textContent);

test('offline, a new search shows none of the last one under its words: it says it is offline, with Retry', async () => {
  const user = userEvent.setup({ delay: null });
  signInAs(teacher);
  renderInApp(
    <Routes>
      <Route path="/search" element={<SearchPage />} />
    </Routes>,
    '/search?q=cell',
  );
  await waitFor(() => expect(hits().join(' ')).toContain('Cell respiration'));

  onlineManager.setOnline(false);
  const box = screen.getByRole('searchbox');
  await user.clear(box);
  await user.type(box, 'mitosis{Enter}');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Could not load search results.');
  expect(alert.textContent).toContain(offlineMessage());
  expect(within(alert).getByRole('button', { name: 'Retry' })).toBeDefined();
  expect(hits()).toEqual([]);
  // The words sit in their own element (translate="no"): the sentence is read whole.
  expect(
    screen
      .queryAllByRole('status')
      .map((status) => status.textContent)
      .join(' '),
  ).not.toContain('for “mitosis”');

  // Back online: the paused search goes on by itself and shows the new word's hits.
  onlineManager.setOnline(true);
  await waitFor(() => expect(hits().join(' ')).toContain('Mitosis and meiosis'));
  expect(hits().join(' ')).not.toContain('Cell respiration');
  expect(screen.getByRole('status').textContent).toContain('for “mitosis”');
  expect(screen.queryByRole('alert')).toBeNull();
});
