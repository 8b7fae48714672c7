import { afterEach, beforeEach, expect, test } from 'bun:test';
import { queryClient } from '@api/query-client';
import { renderInApp } from '@test/render';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LmsSection } from './LmsSection';

/* The class's LMS section from stand-in server answers (the real routes: src/routes/lti-services.test.ts). */
const realFetch = globalThis.fetch;
type Sent = { method: string; url: string; body: unknown };
const sent: Sent[] = [];
let section: any;
let afterSync: () => void = () => {};

const job = (state: string) => ({ _id: 'j1', state, error: null, finishedAt: null });
const linked = () => ({
  contexts: [
    {
      _id: 'x1',
      platformName: 'Moodle of Springfield',
      title: 'Biology 101',
      roster: true,
      gradebook: true,
      lastRosterSyncAt: null,
    },
  ],
  lmsStudents: 0,
  rosterSync: null,
  links: [
    {
      _id: 'k1',
      lectureId: 'l1',
      nameOfTopic: 'Mitosis',
      scoreSource: 'watched',
      hasQuestions: true,
      inGradebook: true,
    },
    {
      _id: 'k2',
      lectureId: 'l2',
      nameOfTopic: 'Meiosis',
      scoreSource: 'watched',
      hasQuestions: false,
      inGradebook: false,
    },
  ],
});

beforeEach(() => {
  queryClient.clear();
  sent.length = 0;
  section = linked();
  afterSync = () => {};
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const body = request.method === 'GET' ? undefined : await request.text();
    const url = new URL(request.url).pathname;
    sent.push({ method: request.method, url, body: body ? JSON.parse(body) : undefined });
    if (request.method === 'POST' && url.endsWith('/lti/roster-sync')) {
      section = { ...section, rosterSync: job('queued') };
      afterSync();
      return Response.json({ job: job('queued') }, { status: 202 });
    }
    if (request.method === 'PATCH') {
      const link = section.links.find((each: { _id: string }) => url.endsWith(`/links/${each._id}`));
      link.scoreSource = JSON.parse(body as string).scoreSource;
      return Response.json(link);
    }
    return Response.json(section);
  }) as typeof fetch;
});
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
});

test('a class with no LMS shows no section', async () => {
  section = { contexts: [], lmsStudents: 0, rosterSync: null, links: [] };
  renderInApp(<LmsSection courseId="c0" />);
  await waitFor(() => expect(sent.length).toBeGreaterThan(0));
  await Bun.sleep(50);
  expect(screen.queryByRole('heading', { name: 'LMS' })).toBeNull();
});

test('the teacher syncs the roster and follows it in words until it is done', async () => {
  renderInApp(<LmsSection courseId="c1" />);
  await screen.findByRole('heading', { name: 'LMS' });
  expect(screen.getByText('Biology 101').getAttribute('translate')).toBe('no');
  screen.getByText('Moodle of Springfield');
  screen.getByText(/Roster not synced yet\./);
  screen.getByText(/No students came from the LMS yet\./);
  // The server finishes the sync by the section's next look.
  afterSync = () => {
    setTimeout(() => {
      section = {
        ...section,
        rosterSync: { ...job('done'), finishedAt: new Date().toISOString() },
        lmsStudents: 2,
        contexts: [{ ...section.contexts[0], lastRosterSyncAt: new Date().toISOString() }],
      };
    }, 300);
  };
  const button = screen.getByRole('button', { name: 'Sync roster now' });
  await userEvent.setup().click(button);
  expect(sent.filter((each) => each.method === 'POST').map((each) => each.url)).toEqual([
    '/api/courses/c1/lti/roster-sync',
  ]);
  await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Waiting to sync the roster…'));
  expect((button as HTMLButtonElement).disabled).toBe(true);
  await waitFor(() => expect(screen.getByRole('status').textContent).toBe('The roster is up to date.'), {
    timeout: 6000,
  });
  screen.getByText(/2 students came from the LMS\./);
  screen.getByText(/Roster synced just now\./);
  expect((button as HTMLButtonElement).disabled).toBe(false);
});

test('a failed sync is said so, and may be asked again', async () => {
  section = { ...linked(), rosterSync: { ...job('failed'), error: 'HTTP 500' } };
  renderInApp(<LmsSection courseId="c2" />);
  await screen.findByText('The roster sync failed: the LMS did not answer as it should. Try again later.');
  expect((screen.getByRole('button', { name: 'Sync roster now' }) as HTMLButtonElement).disabled).toBe(false);
});

test('per placed lecture, the teacher chooses what its grade is', async () => {
  renderInApp(<LmsSection courseId="c3" />);
  const mitosis = (await screen.findByLabelText('Grade for Mitosis')) as HTMLSelectElement;
  expect(mitosis.value).toBe('watched');
  // A lecture without questions has no question score to send.
  const meiosis = screen.getByLabelText('Grade for Meiosis') as HTMLSelectElement;
  expect((meiosis.querySelector('option[value="questions"]') as HTMLOptionElement).disabled).toBe(true);
  screen.getByText('Its gradebook column is made when a first grade is sent.');
  await userEvent.setup().selectOptions(mitosis, 'questions');
  await waitFor(() =>
    expect(sent.filter((each) => each.method === 'PATCH')).toEqual([
      { method: 'PATCH', url: '/api/courses/c3/lti/links/k1', body: { scoreSource: 'questions' } },
    ]),
  );
  await waitFor(() => expect(mitosis.value).toBe('questions'));
});
