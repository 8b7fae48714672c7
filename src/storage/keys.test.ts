import { describe, expect, test } from 'bun:test';
import { mediaKey, parseMediaPath, sourceKey, videoPrefix } from './keys';
import { assertKey } from './storage';

describe('parseMediaPath', () => {
  test.each([
    ['master.m3u8', 'master'],
    ['poster.jpg', { kind: 'poster' }],
    ['2/index.m3u8', { kind: 'playlist', rung: 2 }],
    ['1/init_1.mp4', { kind: 'init', rung: 1 }],
    // One-rung videos made before 0.2 name their init file init.mp4: still served.
    ['0/init.mp4', { kind: 'init', rung: 0, legacy: true }],
    ['0/seg_00042.m4s', { kind: 'segment', rung: 0, index: 42 }],
  ])('%s', (rest, expected) => {
    expect(parseMediaPath(rest)).toEqual(expected as never);
  });
  test('anything not shaped like our own files is refused', () => {
    for (const rest of [
      '../master.m3u8',
      '0/../../classroom.sqlite',
      '1/init_2.mp4',
      '12/index.m3u8',
      '0/seg_1.m4s',
      '0/seg_00001.m4s.bak',
      'MASTER.m3u8',
      '',
    ]) {
      expect(parseMediaPath(rest)).toBeUndefined();
    }
  });
  test('a parsed path builds back the same key', () => {
    const file = parseMediaPath('0/seg_00042.m4s');
    if (!file || file === 'master') throw new Error('not parsed');
    expect(mediaKey('abc_DEF-1', file)).toBe('videos/abc_DEF-1/0/seg_00042.m4s');
  });
});

describe('keys', () => {
  test('are built from ids only', () => {
    expect(sourceKey('v1')).toBe('uploads/v1.source');
    expect(videoPrefix('v1')).toBe('videos/v1');
    for (const id of ['../x', 'a/b', '', 'a b', 'x'.repeat(65)]) expect(() => videoPrefix(id)).toThrow();
  });
  test('storage refuses anything but a plain relative key', () => {
    expect(assertKey('videos/v1/0/seg_00001.m4s')).toBe('videos/v1/0/seg_00001.m4s');
    for (const key of ['../etc/passwd', '/etc/passwd', 'videos//x', 'videos/./x', 'videos/../x', '.hidden', '']) {
      expect(() => assertKey(key)).toThrow();
    }
  });
});
