import { afterEach, beforeEach, expect, test } from 'bun:test';
import { renderInApp } from '@test/render';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TeacherProgress } from './TeacherProgress';

/* The teacher's table from a stand-in server answer (the real one: e2e/teaching.test.ts). */
const realFetch = globalThis.fetch;
const realWidth = window.innerWidth;
const asked: string[] = [];
let answer: () => Response = () => Response.json(table);

const cell = (lectureId: string, percent: number, completed = false) => ({
  lectureId,
  percent,
  completed,
  lastWatchedAt: percent ? new Date().toISOString() : null,
  late: false,
});
const table = {
  lectures: [
    { _id: 'l1', nameOfTopic: 'Optics', dueAt: '2020-01-01T10:00:00.000Z' },
    { _id: 'l2', nameOfTopic: 'Waves', dueAt: null },
  ],
  students: [
    { _id: 's1', username: 'Ada', lectures: [cell('l1', 95, true), cell('l2', 40)] },
    { _id: 's2', username: 'Bo', lectures: [cell('l1', 10), cell('l2', 0)] },
  ],
  page: 1,
  size: 50,
  total: 2,
};

beforeEach(() => {
  asked.length = 0;
  answer = () => Response.json(table);
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    asked.push(String(input));
    return answer();
  }) as typeof fetch;
});
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
  Object.defineProperty(window, 'innerWidth', { value: realWidth, configurable: true });
});

test('students by lectures: percent, done, overdue; a filter asks the server again', async () => {
  renderInApp(<TeacherProgress courseId="c1" />);
  const rows = await screen.findAllByTestId('insight-row');
  expect(rows).toHaveLength(2);
  const ada = within(rows[0] as HTMLElement);
  expect(ada.getAllByTestId('insight-cell').map((td) => td.dataset.percent)).toEqual(['95', '40']);
  ada.getByText('Done');
  // Bo has not finished a lecture past its due date.
  within(rows[1] as HTMLElement).getByText('Overdue');
  expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe('/api/courses/c1/insight.csv');
  await userEvent.setup().selectOptions(screen.getByTestId('insight-filter'), 'overdue');
  expect(asked.at(-1)).toContain('filter=overdue');
});

test('on a phone one lecture at a time, chosen in a select', async () => {
  Object.defineProperty(window, 'innerWidth', { value: 375, configurable: true });
  renderInApp(<TeacherProgress courseId="c2" />);
  await screen.findAllByTestId('insight-row');
  expect(screen.getAllByTestId('insight-cell').map((td) => td.dataset.lecture)).toEqual(['l1', 'l1']);
  expect(screen.queryByRole('option', { name: 'All lectures' })).toBeNull();
});

test('with student tracking off, it says so instead of a table', async () => {
  answer = () => Response.json({ error: 'Tracking is off', code: 'tracking_off' }, { status: 409 });
  renderInApp(<TeacherProgress courseId="c3" />);
  await screen.findByTestId('insight-off');
});
