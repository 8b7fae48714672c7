import { expect, test } from 'bun:test';
import { createRateLimiter } from './rate-limit';

test('a fixed window: the limit passes, the next hit waits for the window, a new window starts fresh', () => {
  const limiter = createRateLimiter(3, 60_000);
  const t0 = 1_000_000;
  expect([1, 2, 3].map(() => limiter.hit('a', t0))).toEqual([0, 0, 0]);
  expect(limiter.waitFor('a', t0)).toBe(60);
  expect(limiter.hit('a', t0 + 30_000)).toBe(30);
  // Other keys are counted apart.
  expect(limiter.hit('b', t0)).toBe(0);
  expect(limiter.waitFor('b', t0)).toBe(0);
  expect(limiter.hit('a', t0 + 60_000)).toBe(0);
  expect(limiter.waitFor('a', t0 + 60_000)).toBe(0);
});

test('reset forgets a key at once', () => {
  const limiter = createRateLimiter(1, 60_000);
  limiter.hit('a', 0);
  limiter.hit('a', 0);
  expect(limiter.waitFor('a', 0)).toBe(60);
  limiter.reset('a');
  expect(limiter.waitFor('a', 0)).toBe(0);
});
