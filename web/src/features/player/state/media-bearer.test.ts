import { expect, test } from 'bun:test';
import { EXPIRY_MARGIN_MS, wantsBearer } from './media-bearer';

const here = 'https://school.example/classroom/c1';
const now = Date.UTC(2026, 10, 27, 12, 0, 0);
const folder = (expiresAt: number) => `${Math.floor(expiresAt / 1000)}.${'a'.repeat(22)}`;

test('the master playlist and other same-origin media carry the bearer', () => {
  expect(wantsBearer('/media/videos/v1/master.m3u8', here, now)).toBe(true);
  expect(wantsBearer('https://school.example/media/videos/v1/master.m3u8?lecture=l1', here, now)).toBe(true);
});

test('a segment under a live token folder goes without it', () => {
  const live = folder(now + 10 * 60_000);
  expect(wantsBearer(`/media/videos/v1/${live}/0/seg_00003.m4s`, here, now)).toBe(false);
  expect(wantsBearer(`/media/videos/v1/${live}/1/index.m3u8`, here, now)).toBe(false);
});

test('once its token has expired, or is about to, a segment carries the bearer for the session check', () => {
  expect(wantsBearer(`/media/videos/v1/${folder(now - 1000)}/0/seg_00040.m4s`, here, now)).toBe(true);
  expect(wantsBearer(`/media/videos/v1/${folder(now + EXPIRY_MARGIN_MS - 1000)}/0/seg_00040.m4s`, here, now)).toBe(
    true,
  );
});

test('never to another origin, signed or not', () => {
  expect(wantsBearer('https://s3.example/bucket/v1/master.m3u8', here, now)).toBe(false);
  expect(wantsBearer(`https://cdn.example/media/videos/v1/${folder(now - 1000)}/0/seg_1.m4s`, here, now)).toBe(false);
});
