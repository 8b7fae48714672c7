import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Harness, startHarness } from '../test/harness';
import { sourceFile } from './paths';
import { claimNextVideo, MAX_ATTEMPTS, markAttemptFailed } from './state';

let h: Harness;
let clips: string;
beforeAll(async () => {
  // No worker: the test drives the queue's state by hand, then starts the worker.
  h = await startHarness({}, { worker: false });
  clips = mkdtempSync(join(tmpdir(), 'classroom-queue-'));
});
afterAll(async () => {
  await h.close();
  rmSync(clips, { recursive: true, force: true });
});

test('a failing job is retried up to 3 times, then shows its reason; the teacher Retry makes it ready', async () => {
  const teacher = await h.signUp('teacher', 'Queue Teacher');
  const student = await h.signUp('student', 'Queue Student');
  const clip = await makeClip(clips, { width: 320, height: 240, seconds: 2 });
  const uploaded = await h.api('POST', '/api/upload', {
    as: teacher.token,
    body: uploadForm(readBytes(clip), 'q.mp4'),
  });
  const videoId = uploaded.json.videoId as string;

  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const claimed = claimNextVideo(h.db);
    expect(claimed?.id).toBe(videoId);
    expect(claimed?.attempts).toBe(attempt);
    const state = markAttemptFailed(h.db, claimed!, 'ffmpeg failed (1): simulated');
    expect(state).toBe(attempt < MAX_ATTEMPTS ? 'queued' : 'failed');
  }
  expect(claimNextVideo(h.db)).toBeUndefined();
  const failed = await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token });
  expect(failed.json).toMatchObject({ status: 'failed', error: 'ffmpeg failed (1): simulated', attempts: 3 });
  // The original is kept so a retry can use it.
  expect(existsSync(sourceFile(h.dataDir, videoId))).toBe(true);

  expect((await h.api('POST', `/api/videos/${videoId}/retry`, { as: student.token })).status).toBe(404);
  h.media.start();
  const retried = await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token });
  expect(retried.status).toBe(200);
  const deadline = Date.now() + 30_000;
  let status = retried.json.status;
  while (status !== 'ready' && Date.now() < deadline) {
    await Bun.sleep(100);
    status = (await h.api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json.status;
  }
  expect(status).toBe('ready');
  const again = await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token });
  expect(again.status).toBe(409);
});

test('an upload that would leave too little disk is refused with 507 and leaves nothing', async () => {
  const full = await startHarness({ MIN_FREE_DISK_BYTES: String(1024 ** 5) }, { worker: false });
  try {
    const teacher = await full.signUp('teacher', 'Disk Teacher');
    const result = await full.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(new Uint8Array(1024), 'x.mp4'),
    });
    expect(result.status).toBe(507);
    expect(result.json.error).toContain('disk space');
    expect(full.sqlite.query('SELECT count(*) AS n FROM videos').get()).toEqual({ n: 0 });
  } finally {
    await full.close();
  }
});
