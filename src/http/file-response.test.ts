import { describe, expect, test } from 'bun:test';
import type { ByteRange } from '../storage/storage';
import { fileResponse, parseRange } from './file-response';

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

describe('fileResponse answers ranges from either storage driver', () => {
  const bytes = new TextEncoder().encode('0123456789abcdef');
  // The local driver reads a Blob (a file slice); the S3 driver a stream (a ranged GET).
  const readers = {
    blob: async (range?: ByteRange) => new Blob([bytes]).slice(range?.start ?? 0, (range?.end ?? bytes.length - 1) + 1),
    stream: async (range?: ByteRange) =>
      new Response(bytes.slice(range?.start ?? 0, (range?.end ?? bytes.length - 1) + 1))
        .body as ReadableStream<Uint8Array>,
  };
  const request = (headers: Record<string, string> = {}, method = 'GET') =>
    new Request('http://localhost/x', { method, headers });

  test.each(Object.keys(readers) as (keyof typeof readers)[])('%s', async (kind) => {
    const read = readers[kind];
    const headers = { 'Content-Type': 'video/iso.segment' };
    const whole = await fileResponse(request(), bytes.length, read, headers);
    expect(whole?.status).toBe(200);
    expect(whole?.headers.get('content-length')).toBe('16');
    expect(await whole?.text()).toBe('0123456789abcdef');

    const part = await fileResponse(request({ range: 'bytes=4-7' }), bytes.length, read, headers);
    expect(part?.status).toBe(206);
    expect(part?.headers.get('content-range')).toBe('bytes 4-7/16');
    expect(part?.headers.get('content-length')).toBe('4');
    expect(await part?.text()).toBe('4567');

    const tail = await fileResponse(request({ range: 'bytes=-3' }), bytes.length, read, headers);
    expect(await tail?.text()).toBe('def');

    const outside = await fileResponse(request({ range: 'bytes=16-' }), bytes.length, read, headers);
    expect(outside?.status).toBe(416);
    expect(outside?.headers.get('content-range')).toBe('bytes */16');

    const head = await fileResponse(request({}, 'HEAD'), bytes.length, read, headers);
    expect(head?.status).toBe(200);
    expect(head?.headers.get('accept-ranges')).toBe('bytes');
  });

  test('a key that is gone by the time it is read is no answer (the route says 404)', async () => {
    expect(await fileResponse(request(), 16, async () => undefined, {})).toBeUndefined();
  });
});
