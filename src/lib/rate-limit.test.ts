import { afterAll, beforeAll, expect, test } from 'bun:test';
import { openDatabase } from '../db/client';
import { rateLimits } from '../db/schema';
import { openScratchDatabase } from '../test/database';
import { createRateLimiter, deleteEndedWindows } from './rate-limit';

let scratch: Awaited<ReturnType<typeof openScratchDatabase>>;
/** A second handle on the same database: another server process, as far as the limits can tell. */
let other: ReturnType<typeof openDatabase>;

beforeAll(async () => {
  scratch = await openScratchDatabase();
  other = openDatabase({
    databaseUrl: scratch.env.DATABASE_URL,
    databaseFile: scratch.handle.sqlite?.filename ?? '',
  });
});
afterAll(async () => {
  await other?.close();
  await scratch?.close();
});

test('a fixed window: the limit passes, the next hit waits for the window, a new window starts fresh', async () => {
  const limiter = createRateLimiter(scratch.db, 'window', 3, 1500);
  expect([await limiter.hit('a'), await limiter.hit('a'), await limiter.hit('a')]).toEqual([0, 0, 0]);
  expect(await limiter.waitFor('a')).toBe(2);
  expect(await limiter.hit('a')).toBeGreaterThan(0);
  // Other keys, and the same key of another limiter, are counted apart.
  expect(await limiter.hit('b')).toBe(0);
  expect(await limiter.waitFor('b')).toBe(0);
  expect(await createRateLimiter(scratch.db, 'elsewhere', 3, 1500).waitFor('a')).toBe(0);
  await Bun.sleep(1600);
  expect(await limiter.waitFor('a')).toBe(0);
  expect(await limiter.hit('a')).toBe(0);
});

test('reset forgets a key at once, and ended windows are swept', async () => {
  const limiter = createRateLimiter(scratch.db, 'reset', 1, 60_000);
  await limiter.hit('a');
  await limiter.hit('a');
  expect(await limiter.waitFor('a')).toBe(60);
  await limiter.reset('a');
  expect(await limiter.waitFor('a')).toBe(0);
  const short = createRateLimiter(scratch.db, 'short', 1, 1);
  await short.hit('gone');
  await Bun.sleep(20);
  expect(await deleteEndedWindows(scratch.db)).toBeGreaterThanOrEqual(1);
  expect(await short.waitFor('gone')).toBe(0);
});

test('two processes count into one window: together they allow what one allows, even when hits race', async () => {
  const here = createRateLimiter(scratch.db, 'cluster', 10, 60_000);
  const there = createRateLimiter(other.db, 'cluster', 10, 60_000);
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? here : there).hit('203.0.113.9')),
  );
  expect(answers.filter((seconds) => seconds === 0)).toHaveLength(10);
  expect(await here.waitFor('203.0.113.9')).toBeGreaterThan(0);
  expect(await there.waitFor('203.0.113.9')).toBeGreaterThan(0);
});

test('the rows keep a hash of the key, never the address or email itself', async () => {
  await createRateLimiter(scratch.db, 'privacy', 5, 60_000).hit('pupil@school.example');
  const rows = JSON.stringify(await scratch.db.select().from(rateLimits));
  expect(rows).toContain('"count":1');
  expect(rows).not.toContain('pupil@school.example');
  expect(rows).not.toContain('school.example');
});
