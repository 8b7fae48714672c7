import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { jobs } from '../db/schema';
import { claimJob, finishJob } from '../jobs/jobs';
import { scratchDir } from '../storage/keys';
import { makeClip, readBytes, uploadForm } from '../test/fixtures';
import { type Account, type Harness, startHarness } from '../test/harness';
import { createClass } from '../test/scenario';
import { attemptDir } from './transcode-job';

/**
 * The job owns the video's state: what the teacher reads in the lecture list (`processingStatus`) after Cancel,
 * Retry, a failure and a take-back, each one a state the teacher can act on.
 */
let h: Harness;
let admin: Account;
let teacher: Account;
let clips: string;
let classId: string;
let bytes: Uint8Array;
beforeAll(async () => {
  // No worker at first: each test says when one runs.
  h = await startHarness({ JOB_LEASE_SECONDS: '1' }, { worker: false });
  clips = mkdtempSync(join(tmpdir(), 'classroom-video-state-'));
  admin = await h.signUp('teacher', 'Ada Admin');
  teacher = await h.signUp('teacher', 'Vera State');
  classId = (await createClass(h, teacher, 'States 101')).id;
  bytes = readBytes(await makeClip(clips, { width: 640, height: 360, seconds: 12, name: 'state.mp4' }));
});
afterAll(async () => {
  await h?.worker.stop();
  await h?.close();
  rmSync(clips, { recursive: true, force: true });
});

const upload = async (topic: string, clip = bytes) => {
  const form = uploadForm(clip, 'state.mp4');
  form.append('courseId', classId);
  form.append('nameOfTopic', topic);
  const answer = await h.api('POST', '/api/upload', { as: teacher.token, body: form });
  expect(answer.status).toBe(201);
  return { videoId: answer.json.videoId as string, lectureId: answer.json.lectureId as string };
};

/** The lecture as the teacher's lecture list shows it. */
const listed = async (lectureId: string) => {
  const list = (await h.api('GET', `/api/lectures/course/${classId}`, { as: teacher.token })).json;
  return list.find((lecture: { _id: string }) => lecture._id === lectureId);
};

const waitFor = async (lectureId: string, done: (lecture: any) => boolean, ms = 60_000) => {
  const deadline = Date.now() + ms;
  let lecture = await listed(lectureId);
  while (!done(lecture) && Date.now() < deadline) {
    await Bun.sleep(100);
    lecture = await listed(lectureId);
  }
  return lecture;
};

test('Cancel of a waiting video: the teacher reads that it was cancelled, and Retry makes it ready', async () => {
  const { videoId, lectureId } = await upload('Cancelled while waiting');
  expect((await listed(lectureId)).processingStatus).toBe('pending');
  const cancel = await h.api('POST', `/api/admin/videos/${videoId}/cancel`, { as: admin.token });
  expect(cancel.status).toBe(200);
  const lecture = await listed(lectureId);
  expect(lecture).toMatchObject({ processingStatus: 'failed', videoLink: null, video: { status: 'cancelled' } });
  expect(lecture.processingError).toContain('cancelled by an administrator');
  // The console lists it with its topic and class, not only the file's name.
  const queue = (await h.api('GET', '/api/admin/overview', { as: admin.token })).json.queue;
  expect(queue.filter((entry: { videoId: string }) => entry.videoId === videoId)).toEqual([
    expect.objectContaining({
      state: 'cancelled',
      videoStatus: 'cancelled',
      fileName: 'state.mp4',
      lectureTitle: 'Cancelled while waiting',
      courseId: classId,
      className: 'States 101',
    }),
  ]);
  // A second Cancel is refused and changes nothing.
  const before = h.snapshot();
  const again = await h.api('POST', `/api/admin/videos/${videoId}/cancel`, { as: admin.token });
  expect(again.status).toBe(409);
  expect(h.snapshot()).toEqual(before);

  const retried = await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token });
  expect(retried.status).toBe(200);
  expect(await listed(lectureId)).toMatchObject({ processingStatus: 'pending', processingError: null });
  h.worker.start();
  try {
    const ready = await waitFor(
      lectureId,
      (l) => l.processingStatus === 'completed' || l.processingStatus === 'failed',
    );
    expect(ready).toMatchObject({ processingStatus: 'completed', video: { status: 'ready', attempts: 1 } });
  } finally {
    await h.worker.stop();
  }
}, 90_000);

test('Cancel mid-transcode stops the worker; the lecture says cancelled and can be deleted', async () => {
  const { videoId, lectureId } = await upload('Cancelled while processing');
  h.worker.start();
  try {
    const processing = await waitFor(lectureId, (l) => l.processingStatus === 'processing');
    expect(processing.processingStatus).toBe('processing');
    expect(readdirSync(scratchDir(h.config.scratchDir, videoId))).toHaveLength(1);
    expect((await h.api('POST', `/api/admin/videos/${videoId}/cancel`, { as: admin.token })).status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!h.worker.isIdle() && Date.now() < deadline) await Bun.sleep(50);
    expect(h.worker.isIdle()).toBe(true);
    // Still cancelled once the worker stopped (the stopped run wrote nothing), its scratch folder gone.
    const lecture = await listed(lectureId);
    expect(lecture).toMatchObject({ processingStatus: 'failed', video: { status: 'cancelled' } });
    expect(existsSync(scratchDir(h.config.scratchDir, videoId))).toBe(false);
    const [job] = await h.db.select().from(jobs).where(eq(jobs.subjectId, videoId));
    expect(job?.state).toBe('cancelled');
    // The teacher's other way out: delete it.
    expect((await h.api('DELETE', `/api/lectures/${lectureId}`, { as: teacher.token })).status).toBe(200);
    expect(await listed(lectureId)).toBeUndefined();
  } finally {
    await h.worker.stop();
  }
}, 90_000);

test('a final failure reads failed with its reason; a failed attempt with attempts left reads pending', async () => {
  const { videoId, lectureId } = await upload('Failing');
  const job = await claimJob(h.db, 'test-worker.f1', 60_000);
  expect(job?.subjectId).toBe(videoId);
  expect(await listed(lectureId)).toMatchObject({ processingStatus: 'processing', video: { attempts: 1 } });
  expect(await finishJob(h.db, job!, { error: 'ffmpeg failed (1): broken' })).toBe('queued');
  expect(await listed(lectureId)).toMatchObject({
    processingStatus: 'pending',
    video: { error: 'ffmpeg failed (1): broken' },
  });
  await h.db.update(jobs).set({ runAfter: 0 }).where(eq(jobs.subjectId, videoId));
  const second = await claimJob(h.db, 'test-worker.f2', 60_000);
  expect(await finishJob(h.db, second!, { error: 'ffmpeg failed (1): broken again', final: true })).toBe('failed');
  expect(await listed(lectureId)).toMatchObject({
    processingStatus: 'failed',
    processingError: 'ffmpeg failed (1): broken again',
  });
  expect((await h.api('POST', `/api/videos/${videoId}/retry`, { as: teacher.token })).status).toBe(200);
  expect((await listed(lectureId)).processingStatus).toBe('pending');
  await h.api('DELETE', `/api/lectures/${lectureId}`, { as: teacher.token });
});

test('a job whose worker died is taken back once its lease ran out, and the lecture becomes ready', async () => {
  const { videoId, lectureId } = await upload('Taken back');
  // A worker claims it and dies at once (no heartbeat), leaving a scratch folder with a pid that is not ffmpeg.
  const dead = await claimJob(h.db, 'dead-worker.gone', 1000);
  expect(dead?.subjectId).toBe(videoId);
  const leftover = attemptDir(h.config, videoId, 'gone');
  mkdirSync(leftover, { recursive: true });
  writeFileSync(join(leftover, 'ffmpeg.pid'), String(process.pid));
  expect((await listed(lectureId)).processingStatus).toBe('processing');
  h.worker.start();
  try {
    const ready = await waitFor(
      lectureId,
      (l) => l.processingStatus === 'completed' || l.processingStatus === 'failed',
    );
    expect(ready).toMatchObject({ processingStatus: 'completed', video: { status: 'ready', attempts: 1 } });
    expect(h.logLines.some((line) => String(line.msg).includes(`taking back transcode job ${dead?.id}`))).toBe(true);
    // The dead attempt's folder was removed (its pid was not an ffmpeg: nothing was killed, or this test would be).
    expect(existsSync(leftover)).toBe(false);
    const [job] = await h.db.select().from(jobs).where(eq(jobs.id, dead!.id));
    expect(job).toMatchObject({ state: 'done', attempts: 1, interruptions: 1 });
  } finally {
    await h.worker.stop();
  }
}, 90_000);

test('a worker that lost its lease stops, and touches nothing of the new owner: scratch, progress, state', async () => {
  // Long enough that the transcode is still running when the lease is taken: on a quiet machine the 12 s clip
  // finished between its first progress and the theft.
  const long = readBytes(await makeClip(clips, { width: 640, height: 360, seconds: 90, name: 'long.mp4' }));
  const { videoId, lectureId } = await upload('Lost lease', long);
  h.worker.start();
  try {
    await waitFor(lectureId, (l) => l.processingStatus === 'processing' && l.video.progress > 0);
    // Another worker takes the job (as if this one's host froze past its lease) and starts its own attempt.
    const thief = 'other-host.thief';
    await h.db
      .update(jobs)
      .set({ leaseOwner: thief, leaseUntil: Date.now() + 600_000 })
      .where(and(eq(jobs.subjectId, videoId), eq(jobs.state, 'running')));
    const theirs = attemptDir(h.config, videoId, 'thief');
    mkdirSync(theirs, { recursive: true });
    writeFileSync(join(theirs, 'seg_00000.m4s'), 'the new owner is writing this');
    const progressAtTheft = (await listed(lectureId)).video.progress;
    const deadline = Date.now() + 10_000;
    while (!h.worker.isIdle() && Date.now() < deadline) await Bun.sleep(50);
    expect(h.worker.isIdle()).toBe(true);
    // Its own attempt folder is gone; the new owner's is untouched; the video still shows the new owner's run.
    expect(readdirSync(scratchDir(h.config.scratchDir, videoId))).toEqual(['thief']);
    expect(existsSync(join(theirs, 'seg_00000.m4s'))).toBe(true);
    const lecture = await listed(lectureId);
    expect(lecture.processingStatus).toBe('processing');
    expect(lecture.video.progress).toBe(progressAtTheft);
    const [job] = await h.db.select().from(jobs).where(eq(jobs.subjectId, videoId));
    expect(job).toMatchObject({ state: 'running', leaseOwner: thief });
    expect(h.logLines.some((line) => String(line.msg).includes('lease lost'))).toBe(true);
  } finally {
    await h.worker.stop();
  }
}, 90_000);
