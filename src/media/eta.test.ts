import { expect, test } from 'bun:test';
import { steadyEta } from './transcode-job';

test('the time left counts down steadily through noisy measurements, and rises only on a clear slowdown', () => {
  // Measurements every 2 s that wobble by ±25% around a true 60 s countdown.
  const wobble = [1.25, 0.8, 1.2, 0.75, 1.25, 0.8, 1.2, 0.8];
  let eta: { seconds: number; at: number } | null = null;
  const shown: number[] = [];
  wobble.forEach((factor, i) => {
    const now = i * 2000;
    const truth = 60 - i * 2;
    eta = { seconds: steadyEta(eta, truth * factor, now), at: now };
    shown.push(Math.round(eta.seconds));
  });
  // Never goes up, and stays near the truth.
  for (let i = 1; i < shown.length; i++) expect(shown[i]).toBeLessThanOrEqual(shown[i - 1] as number);
  expect(Math.abs((shown.at(-1) as number) - 46)).toBeLessThan(12);

  // A job that really slows down (twice as long as shown) does move the estimate up.
  const slowed = steadyEta({ seconds: 30, at: 0 }, 80, 2000);
  expect(slowed).toBeGreaterThan(30);
});
