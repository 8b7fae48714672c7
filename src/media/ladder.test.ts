import { expect, test } from 'bun:test';
import { planLadder } from './ladder';

const names = (plan: ReturnType<typeof planLadder>) => plan.rungs.map((r) => `${r.name} ${r.width}x${r.height}`);

test('1080p landscape gets every rung, never above the source, with even sizes', () => {
  const plan = planLadder({ width: 1920, height: 1080, fps: 29.97, hasAudio: true });
  expect(names(plan)).toEqual(['240p 426x240', '360p 640x360', '720p 1280x720']);
  expect(plan).toMatchObject({ fps: 29.97, hasAudio: true });
});

test('a 360p source is not upscaled to 720p', () => {
  expect(names(planLadder({ width: 640, height: 360, fps: 25, hasAudio: false }))).toEqual([
    '240p 426x240',
    '360p 640x360',
  ]);
});

test('portrait video is sized on its short side', () => {
  expect(names(planLadder({ width: 1080, height: 1920, fps: 30, hasAudio: true })).at(-1)).toBe('720p 720x1280');
});

test('a source smaller than the lowest rung gets one rung at its own (even) size', () => {
  expect(names(planLadder({ width: 161, height: 121, fps: 30, hasAudio: true }))).toEqual(['122p 162x122']);
});

test('frame rates are capped at 30, and an unknown one becomes 30', () => {
  expect(planLadder({ width: 1280, height: 720, fps: 60, hasAudio: true }).fps).toBe(30);
  expect(planLadder({ width: 1280, height: 720, fps: 0, hasAudio: true }).fps).toBe(30);
});
