import { describe, expect, test } from 'bun:test';
import { parseRange } from './file-response';

describe('parseRange', () => {
  const size = 1000;
  test.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=500-', { start: 500, end: 999 }],
    ['bytes=-100', { start: 900, end: 999 }],
    ['bytes=-5000', { start: 0, end: 999 }],
    ['bytes=900-5000', { start: 900, end: 999 }],
    [' bytes=1-1 ', { start: 1, end: 1 }],
  ])('%s', (header, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
  test('no header, an empty range, several ranges or another unit: the whole file', () => {
    for (const header of [null, undefined, '', 'bytes=-', 'bytes=0-1,5-9', 'items=0-5', 'bytes=abc']) {
      expect(parseRange(header, size)).toBeUndefined();
    }
  });
  test('a range that starts past the end or ends before it starts is unsatisfiable', () => {
    expect(parseRange('bytes=1000-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=50-10', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=0-0', 0)).toBe('unsatisfiable');
  });
});
