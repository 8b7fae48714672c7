import { expect, test } from 'bun:test';
import { segmentTokens } from './segment-token';

const secret = new TextEncoder().encode('a secret of the server that is long enough');
const tokens = segmentTokens(secret, 600);
const now = Date.UTC(2026, 0, 1);

test('a token opens its own video until it expires', () => {
  const token = tokens.issue('video1', now);
  expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{22}$/);
  expect(Number(token.split('.')[0])).toBe(now / 1000 + 600);
  expect(tokens.check('video1', `${token}/0/seg_00001.m4s`, now)).toEqual({ rest: '0/seg_00001.m4s', state: 'valid' });
  expect(tokens.check('video1', `${token}/0/index.m3u8`, now + 599_000)?.state).toBe('valid');
  expect(tokens.check('video1', `${token}/0/index.m3u8`, now + 600_000)?.state).toBe('expired');
});

test('another video, another expiry, another secret or a changed character: forged', () => {
  const [expiry, mac] = tokens.issue('video1', now).split('.');
  expect(tokens.check('video2', `${expiry}.${mac}/0/index.m3u8`, now)?.state).toBe('forged');
  expect(tokens.check('video1', `${Number(expiry) + 3600}.${mac}/0/index.m3u8`, now)?.state).toBe('forged');
  const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
  expect(tokens.check('video1', `${expiry}.${flipped}/0/index.m3u8`, now)?.state).toBe('forged');
  const other = segmentTokens(new TextEncoder().encode('another server entirely, also long enough'), 600);
  expect(other.check('video1', `${expiry}.${mac}/0/index.m3u8`, now)?.state).toBe('forged');
});

test('a path without a token folder has none', () => {
  for (const path of ['master.m3u8', '0/index.m3u8', '123.short/0/index.m3u8', '../x', '']) {
    expect(tokens.check('video1', path, now)).toBeUndefined();
  }
});
