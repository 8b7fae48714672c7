import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type Harness, startHarness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    { PUBLIC_URL: 'https://class.school.example/', MAX_RECORDING_MINUTES: '45', MAX_UPLOAD_BYTES: '5000000' },
    { worker: false },
  );
});
afterAll(() => h?.close());

test('GET /api/app names PUBLIC_URL (without a trailing slash) to signed-in users only', async () => {
  expect((await h.api('GET', '/api/app')).status).toBe(401);
  const teacher = await h.signUp('teacher');
  const answer = await h.api('GET', '/api/app', { as: teacher.token });
  expect(answer.status).toBe(200);
  expect(answer.json.publicUrl).toBe('https://class.school.example');
  expect(answer.json.maxRecordingMinutes).toBe(45);
  expect(answer.json.maxUploadBytes).toBe(5_000_000);
  expect(answer.json.version).toMatch(/^\d+\.\d+\.\d+/);
  if (answer.json.lanUrl !== null) expect(answer.json.lanUrl).toMatch(/^http:\/\/(10|172|192)\.[\d.]+:\d+$/);
});
