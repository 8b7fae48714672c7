import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { cancelJobs, claimJob, enqueueJob, finishJob, heartbeat, MAX_INTERRUPTIONS } from './jobs';
import { createJobRunner } from './runner';

const dir = mkdtempSync(join(tmpdir(), 'classroom-jobs-'));
const { sqlite, db } = openDatabase(join(dir, 'test.sqlite'));
migrate(sqlite);
afterAll(() => {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a running job is taken back only once its lease has run out; the heartbeat keeps it', async () => {
  const t0 = Date.now();
  const job = await enqueueJob(db, 'transcode', { videoId: 'v1' }, { subjectId: 'v1', runAfter: t0 });
  const first = await claimJob(db, 'worker-a', 1000, t0);
  expect(first).toMatchObject({ job: { id: job.id, attempts: 1, leaseOwner: 'worker-a' }, takenBack: false });
  // Another worker (a restart) finds nothing while the lease holds, and the owner renews it.
  expect(await claimJob(db, 'worker-b', 1000, t0 + 900)).toBeUndefined();
  expect(await heartbeat(db, 'worker-a', [job.id], 1000, t0 + 900)).toEqual([]);
  expect(await claimJob(db, 'worker-b', 1000, t0 + 1500)).toBeUndefined();
  // worker-a dies: no more heartbeats. After the lease, worker-b takes it back: an interruption, not an attempt.
  const taken = await claimJob(db, 'worker-b', 1000, t0 + 2000);
  expect(taken).toMatchObject({
    job: { id: job.id, attempts: 1, interruptions: 1, leaseOwner: 'worker-b' },
    takenBack: true,
  });
  // The old owner's heartbeat learns it lost the job; its late finish changes nothing.
  expect(await heartbeat(db, 'worker-a', [job.id], 1000, t0 + 2100)).toEqual([job.id]);
  await finishJob(db, first!.job, 'worker-a', { done: true });
  await finishJob(db, taken!.job, 'worker-b', { done: true });
  expect(await claimJob(db, 'worker-c', 1000, t0 + 10_000)).toBeUndefined();
});

test('a failed attempt waits its backoff, the last one fails for good; a stop is not an attempt', async () => {
  const t0 = Date.now();
  const job = await enqueueJob(db, 'transcode', {}, { subjectId: 'v2', maxAttempts: 2, runAfter: t0 });
  const one = (await claimJob(db, 'w', 1000, t0))!.job;
  expect(await finishJob(db, one, 'w', { stopped: true }, t0)).toBe('queued');
  const again = (await claimJob(db, 'w', 1000, t0))!.job;
  expect(again.attempts).toBe(1);
  expect(await finishJob(db, again, 'w', { error: 'boom' }, t0)).toBe('queued');
  expect(await claimJob(db, 'w', 1000, t0 + 1000)).toBeUndefined();
  const last = (await claimJob(db, 'w', 1000, t0 + 2000))!.job;
  expect(last).toMatchObject({ id: job.id, attempts: 2 });
  expect(await finishJob(db, last, 'w', { error: 'boom again' }, t0 + 2000)).toBe('failed');
  expect(await claimJob(db, 'w', 1000, t0 + 60_000)).toBeUndefined();
});

test('cancelling by subject stops waiting and running jobs', async () => {
  const t0 = Date.now();
  await enqueueJob(db, 'transcode', {}, { subjectId: 'v3', runAfter: t0 });
  const running = (await claimJob(db, 'w', 1000, t0))!.job;
  await enqueueJob(db, 'transcode', {}, { subjectId: 'v3', runAfter: t0 });
  expect(await cancelJobs(db, 'v3')).toHaveLength(2);
  expect(await heartbeat(db, 'w', [running.id], 1000, t0 + 10)).toEqual([running.id]);
  expect(await claimJob(db, 'w', 1000, t0 + 60_000)).toBeUndefined();
});

test('a job whose worker keeps dying is given up after MAX_INTERRUPTIONS, with a reason, through its handler', async () => {
  const t0 = Date.now() - 60_000;
  const job = await enqueueJob(db, 'backup', {}, { subjectId: 'poison', runAfter: t0 });
  // Each run's worker dies (no heartbeat, no finish): the lease runs out and the next worker takes it back.
  let claimed = await claimJob(db, 'dying-0', 1000, t0);
  for (let i = 1; i <= MAX_INTERRUPTIONS; i++) {
    claimed = await claimJob(db, `dying-${i}`, 1000, t0 + i * 2000);
    expect(claimed).toMatchObject({ job: { id: job.id, attempts: 1, interruptions: i }, takenBack: true });
  }
  const failures: { reason: string; final: boolean }[] = [];
  const runner = createJobRunner({
    db,
    concurrency: 1,
    leaseMs: 1000,
    pollMs: 50,
    handlers: {
      transcode: { run: async () => {} },
      backup: {
        run: async () => {
          throw new Error('must not run again');
        },
        failed: async (_payload, reason, final) => void failures.push({ reason, final }),
      },
    },
  });
  runner.start();
  const deadline = Date.now() + 10_000;
  while (failures.length === 0 && Date.now() < deadline) await Bun.sleep(50);
  await runner.stop();
  expect(failures).toHaveLength(1);
  expect(failures[0]?.final).toBe(true);
  expect(failures[0]?.reason).toContain(`stopped unexpectedly ${MAX_INTERRUPTIONS + 1} times`);
  expect(await claimJob(db, 'later', 1000, Date.now() + 60_000)).toBeUndefined();
});
