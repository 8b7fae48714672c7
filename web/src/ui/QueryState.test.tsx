import { expect, test } from 'bun:test';
import { ApiError } from '@api/client';
import { courseKeys } from '@api/query-keys';
import { onlineManager, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { offlineMessage, QueryState } from './QueryState';

/** A class list whose loads the test answers one at a time, as the server would. */
function classesSource() {
  const pending: { resolve: (names: string[]) => void; reject: (error: Error) => void }[] = [];
  return {
    load: () => new Promise<string[]>((resolve, reject) => pending.push({ resolve, reject })),
    get loads() {
      return pending.length;
    },
    answer: (names: string[]) => pending.at(-1)!.resolve(names),
    fail: (error: Error) => pending.at(-1)!.reject(error),
  };
}

function Classes({ load }: { load: () => Promise<string[]> }) {
  const query = useQuery({ queryKey: courseKeys.list(), queryFn: load });
  return (
    <QueryState query={query} label="classes" empty={<p>No classes yet.</p>}>
      {(names) => (
        <ul aria-label="Classes">
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryState>
  );
}

function renderClasses() {
  const source = classesSource();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Classes load={source.load} />
    </QueryClientProvider>,
  );
  return { source, client };
}

test('shows a spinner named after what loads, then the data', async () => {
  const { source } = renderClasses();
  expect(screen.getByRole('status', { name: 'Loading classes' })).toBeDefined();
  source.answer(['Biology', 'Chemistry']);
  const list = await screen.findByRole('list', { name: 'Classes' });
  expect([...list.querySelectorAll('li')].map((item) => item.textContent)).toEqual(['Biology', 'Chemistry']);
  expect(screen.queryByRole('status')).toBeNull();
});

test('shows the empty message when the list is empty', async () => {
  const { source } = renderClasses();
  source.answer([]);
  expect(await screen.findByText('No classes yet.')).toBeDefined();
  expect(screen.queryByRole('list')).toBeNull();
});

test('a failed first load shows what failed and why, never the empty message', async () => {
  const { source } = renderClasses();
  source.fail(new ApiError(500, 'The server had a problem.'));
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Could not load classes.');
  expect(alert.textContent).toContain('The server had a problem.');
  expect(screen.queryByText('No classes yet.')).toBeNull();
  expect(screen.queryByRole('list')).toBeNull();
});

test('Retry loads again, with the spinner while it does, and the data replaces the error', async () => {
  const user = userEvent.setup();
  const { source } = renderClasses();
  source.fail(new Error('Cannot reach the server. Check your connection.'));
  await user.click(await screen.findByRole('button', { name: 'Retry' }));
  expect(source.loads).toBe(2);
  // With no data yet, TanStack Query puts a retried query back to pending: the spinner, not a stale error.
  expect(await screen.findByRole('status', { name: 'Loading classes' })).toBeDefined();
  expect(screen.queryByRole('alert')).toBeNull();
  source.answer(['History']);
  expect(await screen.findByText('History')).toBeDefined();
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a failed background refetch keeps the loaded data on screen', async () => {
  const { source, client } = renderClasses();
  source.answer(['Physics']);
  await screen.findByText('Physics');
  const refetch = client.refetchQueries({ queryKey: courseKeys.list() });
  source.fail(new Error('Cannot reach the server. Check your connection.'));
  await refetch;
  expect(screen.getByText('Physics')).toBeDefined();
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a first load held back offline says so with Retry, never a spinner for ever, and loads once back online', async () => {
  onlineManager.setOnline(false);
  try {
    const { source } = renderClasses();
    // TanStack Query does not even start the request while offline: paused, with no error.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Could not load classes.');
    expect(alert.textContent).toContain(offlineMessage());
    expect(screen.getByRole('button', { name: 'Retry' })).toBeDefined();
    expect(screen.queryByRole('status', { name: 'Loading classes' })).toBeNull();
    expect(screen.queryByText('No classes yet.')).toBeNull();
    expect(source.loads).toBe(0);
    onlineManager.setOnline(true);
    await waitFor(() => expect(source.loads).toBe(1));
    source.answer(['Geography']);
    expect(await screen.findByText('Geography')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  } finally {
    onlineManager.setOnline(true);
  }
});
