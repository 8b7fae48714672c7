import { expect, test } from 'bun:test';
import { etaFrom, steadyEta } from './transcode-job';

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

test("a 20 s clip is never 'about 5 min': the start-up is not counted, the clip's length guides until speed is measured", () => {
  // ffmpeg needs 3 s to start, then does 2 s of media per second: the truth is 10 s of work once it runs.
  const durationMs = 20_000;
  let eta: { seconds: number; at: number } | null = null;
  let measured = false;
  let first: { at: number; outTimeMs: number } | null = null;
  const shown: { at: number; seconds: number; truth: number; measured: boolean }[] = [];
  for (let now = 3000; now <= 10_000; now += 1000) {
    const outTimeMs = (now - 3000) * 2 + 200;
    first ??= { at: now, outTimeMs };
    const next = etaFrom({ durationMs, outTimeMs, first, now });
    // As the job does it: the first measurement replaces the guess, later ones are smoothed.
    eta = { seconds: next.measured && !measured ? next.seconds : steadyEta(eta, next.seconds, now), at: now };
    measured ||= next.measured;
    shown.push({ at: now, seconds: Math.round(eta.seconds), truth: (durationMs - outTimeMs) / 2000, measured });
  }
  // The first estimate is the clip's length (not the 5 min that elapsed ÷ 1% gave), and never more after it.
  expect(shown[0]).toMatchObject({ seconds: 20, measured: false });
  for (const { seconds } of shown) expect(seconds).toBeLessThanOrEqual(20);
  // Once measured (after 1.5 s), it is the truth within a second or two, and stays so.
  for (const row of shown.filter((r) => r.measured)) expect(Math.abs(row.seconds - row.truth)).toBeLessThanOrEqual(2);
  expect(shown.filter((r) => r.measured).length).toBeGreaterThan(4);
  // A slow machine (a quarter of real time) is measured too: its estimate rises above the clip-length guess.
  const slow = etaFrom({ durationMs, outTimeMs: 1000, first: { at: 0, outTimeMs: 0 }, now: 4000 });
  expect(slow).toEqual({ seconds: 76, measured: true });
});
