import { afterEach, beforeEach, expect, test } from 'bun:test';
import { sessionAtom } from '@lib/session';
import { appStore } from '@lib/store';
import { flushCoverage, hasQueuedCoverage, sendCoverage } from './coverage-reports';

/*
 * Coverage played offline waits on this device, merged per lecture, and goes with `offline: true` once the
 * connection is back. The network is a stand-in here (what the server does with it: e2e/teaching.test.ts).
 */
const realFetch = globalThis.fetch;
let online = true;
let sent: { url: string; body: unknown }[] = [];
let answerWith: () => Response | Promise<Response> = () =>
  Response.json({ percent: 10, completed: false, capped: false });

beforeEach(() => {
  localStorage.clear();
  sent = [];
  online = true;
  Object.defineProperty(navigator, 'onLine', { get: () => online, configurable: true });
  appStore.set(sessionAtom, { status: 'authenticated', user: { _id: 'pupil-1' } } as never);
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), body: JSON.parse(String(init?.body ?? 'null')) });
    return answerWith();
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

test('online, a report is sent at once and the answer handed back', async () => {
  const answer = await sendCoverage('lec-1', { ranges: [[0, 15]], rate: 1 });
  expect(answer).toEqual({ percent: 10, completed: false, capped: false });
  expect(sent).toEqual([{ url: '/api/lectures/lec-1/coverage', body: { ranges: [[0, 15]], rate: 1 } }]);
  expect(hasQueuedCoverage()).toBe(false);
});

test('offline, reports wait on the device merged per lecture, and go with offline: true when back', async () => {
  online = false;
  await sendCoverage('lec-1', { ranges: [[0, 15]], rate: 1 });
  await sendCoverage('lec-1', { ranges: [[15, 30]], rate: 1.5 });
  await sendCoverage('lec-2', { ranges: [[5, 10]], rate: 1 });
  expect(sent).toEqual([]);
  expect(hasQueuedCoverage()).toBe(true);
  // Kept under the person's own `classroom.` key, which sign-out removes.
  expect(Object.keys(localStorage)).toEqual(['classroom.coverage.pupil-1']);

  online = true;
  await flushCoverage();
  expect(sent).toEqual([
    { url: '/api/lectures/lec-1/coverage', body: { ranges: [[0, 30]], rate: 1.5, offline: true } },
    { url: '/api/lectures/lec-2/coverage', body: { ranges: [[5, 10]], rate: 1, offline: true } },
  ]);
  expect(hasQueuedCoverage()).toBe(false);
});

test('a report the network dropped is queued; one the server refused is not kept', async () => {
  answerWith = () => Promise.reject(new TypeError('Failed to fetch'));
  await sendCoverage('lec-1', { ranges: [[0, 15]], rate: 1 });
  expect(hasQueuedCoverage()).toBe(true);

  answerWith = () => Response.json({ error: 'Not yours', code: 'forbidden' }, { status: 403 });
  await flushCoverage();
  expect(hasQueuedCoverage()).toBe(false);
  answerWith = () => Response.json({ percent: 10, completed: false, capped: false });
});
