import { expect, test } from 'bun:test';
import { waitForVideo, waitUntil } from './wait';

test('waitUntil answers the first truthy value, and past its deadline names what it waited for', async () => {
  let calls = 0;
  expect(await waitUntil('the third call', () => (++calls === 3 ? 'done' : undefined), { everyMs: 1 })).toBe('done');
  expect(calls).toBe(3);
  const started = Date.now();
  await expect(
    waitUntil('a door that never opens', () => false, { timeoutMs: 50, everyMs: 5, lastSeen: () => 'shut' }),
  ).rejects.toThrow('Timed out after 0.05 s waiting for a door that never opens (last seen: shut)');
  expect(Date.now() - started).toBeLessThan(2000);
});

test('waitForVideo fails at once on a failed transcode with its error, and names the last status when stuck', async () => {
  const answers = [{ status: 'queued' }, { status: 'failed', error: 'No video stream.' }];
  await expect(
    waitForVideo('the clip', async () => answers.shift() ?? { status: 'gone' }, { everyMs: 1 }),
  ).rejects.toThrow('the clip failed to process: No video stream.');
  await expect(
    waitForVideo('the slow clip', async () => ({ status: 'processing', playable: false }), {
      until: 'playable',
      timeoutMs: 30,
      everyMs: 5,
    }),
  ).rejects.toThrow('waiting for the slow clip to be playable (last seen: {"status":"processing","playable":false})');
  expect(await waitForVideo('the quick clip', async () => ({ status: 'ready' }))).toEqual({ status: 'ready' });
});
