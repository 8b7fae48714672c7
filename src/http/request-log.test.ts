import { afterAll, beforeAll, expect, test } from 'bun:test';
import { segmentTokens } from '../media/segment-token';
import { type Harness, startHarness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

test('the request line of a signed media path keeps the video id but not the token folder', async () => {
  const videoId = 'vid-logged';
  // A token as the server signs it: the same secret and lifetime as its media routes.
  const token = segmentTokens(h.config.jwtSecret, h.config.segmentTokenSeconds).issue(videoId);
  const [, hmac] = token.split('.');
  for (const rest of ['0/index.m3u8', '0/seg-00001.m4s']) {
    const answer = await fetch(`${h.baseUrl}/media/videos/${videoId}/${token}/${rest}`);
    await answer.body?.cancel();
    const reqId = answer.headers.get('x-request-id');
    const line = h.logLines.find((entry) => entry.reqId === reqId && entry.msg === 'request');
    expect(line?.path).toBe(`/media/videos/${videoId}/[token]/${rest}`);
    expect(JSON.stringify(line)).not.toContain(hmac);
  }
  // Other paths are logged as they are.
  const other = await fetch(`${h.baseUrl}/api/app-info`);
  await other.body?.cancel();
  const line = h.logLines.find((entry) => entry.reqId === other.headers.get('x-request-id') && entry.msg === 'request');
  expect(line?.path).toBe('/api/app-info');
});
