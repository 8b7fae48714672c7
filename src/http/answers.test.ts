import { afterAll, beforeAll, expect, test } from 'bun:test';
import { gunzipSync } from 'node:zlib';
import { type Harness, startHarness } from '../test/harness';
import { COMPRESS_MIN_BYTES } from './compress-json';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

test('JSON answers of 1 KB or more are gzipped for clients that take it; small ones and other clients get plain JSON', async () => {
  const teacher = await h.signUp('teacher', 'Gzip Teacher');
  for (let i = 0; i < 12; i++) {
    await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName: `Class number ${i + 1}` } });
  }
  // fetch() would decompress by itself: read the raw bytes with decompress off.
  const raw = async (path: string, encoding: string) => {
    const answer = await fetch(`${h.baseUrl}${path}`, {
      headers: { authorization: `Bearer ${teacher.token}`, 'accept-encoding': encoding },
      decompress: false,
    });
    const bytes = new Uint8Array(await answer.arrayBuffer());
    return { answer, bytes, encoding: answer.headers.get('content-encoding'), vary: answer.headers.get('vary') };
  };

  const plain = await raw('/api/courses', 'identity');
  expect(plain.answer.status).toBe(200);
  expect(plain.encoding).toBeNull();
  expect(plain.bytes.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
  expect(plain.vary).toContain('Accept-Encoding');

  const gzipped = await raw('/api/courses', 'gzip, deflate, br');
  expect(gzipped.encoding).toBe('gzip');
  expect(gzipped.vary).toContain('Accept-Encoding');
  expect(Number(gzipped.answer.headers.get('content-length'))).toBe(gzipped.bytes.length);
  expect(gzipped.bytes.length).toBeLessThan(plain.bytes.length / 3);
  expect(JSON.parse(new TextDecoder().decode(gunzipSync(gzipped.bytes)))).toEqual(
    JSON.parse(new TextDecoder().decode(plain.bytes)),
  );

  const small = await raw('/api/users', 'gzip');
  expect(small.encoding).toBeNull();
  expect(small.bytes.length).toBeLessThan(COMPRESS_MIN_BYTES);
  expect(JSON.parse(new TextDecoder().decode(small.bytes)).username).toBe('Gzip Teacher');
  // An error keeps its JSON shape, compressed or not.
  const missing = await raw('/api/courses/nope', 'gzip');
  expect(missing.answer.status).toBe(404);
  expect(JSON.parse(new TextDecoder().decode(missing.bytes)).code).toBe('course_not_found');
});

test('pages carry the document policies; API answers carry nosniff, CORP and no referrer, not a page policy', async () => {
  const page = await fetch(`${h.baseUrl}/login`);
  expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  const docs = await fetch(`${h.baseUrl}/api/docs`);
  expect(docs.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  for (const path of ['/api/users', '/api/health/live', '/media/videos/nope/master.m3u8']) {
    const answer = await fetch(`${h.baseUrl}${path}`);
    const headers = {
      path,
      nosniff: answer.headers.get('x-content-type-options'),
      corp: answer.headers.get('cross-origin-resource-policy'),
      referrer: answer.headers.get('referrer-policy'),
      csp: answer.headers.get('content-security-policy'),
    };
    expect(headers).toEqual({ path, nosniff: 'nosniff', corp: 'same-origin', referrer: 'no-referrer', csp: null });
  }
});
