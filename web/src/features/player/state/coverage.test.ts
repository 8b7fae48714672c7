import { expect, test } from 'bun:test';
import { addRange, PlayedRanges } from './coverage';

/** Plays `from`→`to` at `rate`, a tick every 250 ms of wall time, starting at wall time `start` ms. */
function play(ranges: PlayedRanges, from: number, to: number, rate = 1, start = 0) {
  let now = start;
  for (let position = from; position <= to + 1e-9; position += 0.25 * rate) {
    ranges.tick(position, true, rate, now);
    now += 250;
  }
  return now;
}

test('ranges merge when they overlap or touch, and stay sorted', () => {
  expect(addRange([[10, 20]], [0, 5])).toEqual([
    [0, 5],
    [10, 20],
  ]);
  expect(
    addRange(
      [
        [0, 5],
        [10, 20],
      ],
      [4, 11],
    ),
  ).toEqual([[0, 20]]);
});

test('what plays at normal speed is counted, once', () => {
  const ranges = new PlayedRanges();
  play(ranges, 0, 30);
  expect(ranges.take()).toEqual({ ranges: [[0, 30]], rate: 1 });
  expect(ranges.take()).toBeNull();
});

test('a seek counts nothing between where it left and where it landed', () => {
  const ranges = new PlayedRanges();
  const now = play(ranges, 0, 10);
  ranges.break();
  play(ranges, 100, 105, 1, now + 50);
  expect(ranges.take()?.ranges).toEqual([
    [0, 10],
    [100, 105],
  ]);
});

test('a jump without a seek event (the clock moves faster than time allows) is not counted', () => {
  const ranges = new PlayedRanges();
  ranges.tick(0, true, 1, 0);
  ranges.tick(0.25, true, 1, 250);
  ranges.tick(60, true, 1, 500);
  ranges.tick(60.25, true, 1, 750);
  expect(ranges.take()?.ranges).toEqual([
    [0, 0.25],
    [60, 60.25],
  ]);
});

test('at twice the speed, twice the seconds per wall second count, and the rate is reported', () => {
  const ranges = new PlayedRanges();
  play(ranges, 0, 20, 2);
  expect(ranges.take()).toEqual({ ranges: [[0, 20]], rate: 2 });
});

test('paused ticks count nothing', () => {
  const ranges = new PlayedRanges();
  ranges.tick(5, false, 1, 0);
  ranges.tick(5, false, 1, 10_000);
  expect(ranges.take()).toBeNull();
});

test('at most 50 ranges go in one report; the rest wait for the next', () => {
  const ranges = new PlayedRanges();
  let now = 0;
  for (let i = 0; i < 60; i++) {
    now = play(ranges, i * 10, i * 10 + 1, 1, now);
    ranges.break();
  }
  expect(ranges.take()?.ranges).toHaveLength(50);
  expect(ranges.take()?.ranges).toHaveLength(10);
});
