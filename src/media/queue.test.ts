import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { jobs } from '../db/schema';
import { sourceKey } from '../storage/keys';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Harness, startHarness } from '../test/harness';
import { MAX_ATTEMPTS } from './state';

let h: Harness;
let clips: string;
beforeAll(async () => {
  // No worker at first: the test breaks the stored original before any attempt runs.
  h = await startHarness({}, { worker: false });
  clips = mkdtempSync(join(tmpdir(), 'classroom-queue-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

const waitForStatus = async (videoId: string, token: string, done: (status: string) => boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  let video = (await h.api('GET', `/api/videos/${videoId}`, { as: token })).json;
  while (!done(video.status) && Date.now() < deadline) {
    await Bun.sleep(100);
    video = (await h.api('GET', `/api/videos/${videoId}`, { as: token })).json;
  }
  return video;
};

test('a failing job is retried up to 3 times, then shows its reason; the teacher Retry makes it ready', async () => {
  const teacher = await h.signUp('teacher', 'Queue Teacher');
  const student = await h.signUp('student', 'Queue Student');
  const clip = await makeClip(clips, { width: 320, height: 240, seconds: 2 });
  const uploaded = await h.api('POST', '/api/upload', {
    as: teacher.token,
    body: uploadForm(readBytes(clip), 'q.mp4'),
  });
  const videoId = uploaded.json.videoId as string;

  // The original turns unreadable after the upload was accepted: every attempt fails in ffmpeg.
  await h.storage.put(sourceKey(videoId), new Blob(['not a video any more']));
  h.worker.start();
  const failed = await waitForStatus(videoId, teacher.token, (status) => status === 'failed');
  expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
  expect(failed.error).toContain('ffmpeg failed');
  expect(await h.db.$count(jobs, and(eq(jobs.subjectId, videoId), eq(jobs.state, 'failed')))).toBe(1);
  // The original is kept so a retry can use it.
  expect(await h.storage.stat(sourceKey(videoId))).toBeDefined();

  const before = h.snapshot();
  expect((await h.api('POST', `/api/videos/${videoId}/retry`, { as: student.token })).status).toBe(404);
  expect(h.snapshot()).toEqual(before);
  await h.storage.put(sourceKey(videoId), readBytes(clip));
  const retried = await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token });
  expect(retried.status).toBe(200);
  const ready = await waitForStatus(videoId, teacher.token, (status) => status === 'ready' || status === 'failed');
  expect(ready.status).toBe('ready');
  expect(ready.attempts).toBe(1);
  const again = await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token });
  expect(again.status).toBe(409);
}, 90_000);

test('an upload that would leave too little disk is refused with 507 and leaves nothing', async () => {
  const full = await startHarness({ MIN_FREE_DISK_BYTES: String(1024 ** 5) }, { worker: false });
  try {
    const teacher = await full.signUp('teacher', 'Disk Teacher');
    const before = full.snapshot();
    const result = await full.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(new Uint8Array(1024), 'x.mp4'),
    });
    expect(result.status).toBe(507);
    expect(result.json.error).toContain('disk space');
    expect(full.snapshot()).toEqual(before);
  } finally {
    await full.close();
  }
});
