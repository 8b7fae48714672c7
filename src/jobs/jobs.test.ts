import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema';
import { openTestDatabase } from '../test/database';
import { cancelJobs, claimJob, enqueueJob, finishJob, heartbeat, MAX_INTERRUPTIONS } from './jobs';
import { createJobRunner, periodicJobId } from './runner';

// The test engine's database (SQLite file, or PostgreSQL with TEST_DATABASE_URL): the jobs run on both.
const dir = mkdtempSync(join(tmpdir(), 'classroom-jobs-'));
const database = await openTestDatabase(dir);
const { db } = database.handle;
/** How another process opens the same database. */
const target = JSON.stringify(
  database.env.DATABASE_URL
    ? { databaseUrl: database.env.DATABASE_URL, databaseFile: join(dir, 'unused.sqlite') }
    : { databaseFile: join(dir, 'classroom.sqlite') },
);
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Nothing else in this file's database is due: each test starts from an empty queue. */
const clear = () => db.delete(jobs);

test('a running job is taken back only once its lease ran out by the database clock; the heartbeat keeps it', async () => {
  await clear();
  const job = await enqueueJob(db, 'transcode', { videoId: 'v1' }, { subjectId: 'v1' });
  const first = await claimJob(db, 'worker-a.1', 400);
  expect(first).toMatchObject({ id: job?.id, attempts: 1, leaseOwner: 'worker-a.1', resumed: false });
  // Another worker (a restart) finds nothing while the lease holds, and the owner renews it.
  expect(await claimJob(db, 'worker-b.1', 400)).toBeUndefined();
  await Bun.sleep(250);
  expect(await heartbeat(db, ['worker-a.1'], 400)).toEqual([]);
  await Bun.sleep(250);
  expect(await claimJob(db, 'worker-b.1', 400)).toBeUndefined();
  // worker-a stops beating (it died, or its host froze). Once the lease ran out, worker-b takes it back:
  // an interruption, not an attempt.
  await Bun.sleep(500);
  const taken = await claimJob(db, 'worker-b.1', 400);
  expect(taken).toMatchObject({ id: job?.id, attempts: 1, interruptions: 1, leaseOwner: 'worker-b.1', resumed: true });
  // The old owner's heartbeat learns it lost the job; its late finish changes nothing.
  expect(await heartbeat(db, ['worker-a.1'], 400)).toEqual(['worker-a.1']);
  expect(await finishJob(db, first!, { done: true })).toBeUndefined();
  expect(await finishJob(db, first!, { error: 'late failure' })).toBeUndefined();
  const [row] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
  expect(row).toMatchObject({ state: 'running', leaseOwner: 'worker-b.1', lastError: null });
  expect(await finishJob(db, taken!, { done: true })).toBe('done');
  expect(await claimJob(db, 'worker-c.1', 400)).toBeUndefined();
});

test('a failed attempt waits its backoff, the last one fails for good; a stop is not an attempt', async () => {
  await clear();
  const job = await enqueueJob(db, 'transcode', { videoId: 'v2' }, { subjectId: 'v2', maxAttempts: 2 });
  const one = (await claimJob(db, 'w.1', 5000))!;
  expect(await finishJob(db, one, { stopped: true })).toBe('queued');
  const again = (await claimJob(db, 'w.2', 5000))!;
  expect(again.attempts).toBe(1);
  expect(await finishJob(db, again, { error: 'boom' })).toBe('queued');
  // Backoff: 2 s times the attempt number, on the database clock.
  expect(await claimJob(db, 'w.3', 5000)).toBeUndefined();
  await Bun.sleep(2100);
  const last = (await claimJob(db, 'w.3', 5000))!;
  expect(last).toMatchObject({ id: job?.id, attempts: 2 });
  expect(await finishJob(db, last, { error: 'boom again' })).toBe('failed');
  await Bun.sleep(4100);
  expect(await claimJob(db, 'w.4', 5000)).toBeUndefined();
});

test('cancelling by subject stops waiting and running jobs; the running one learns it at its heartbeat', async () => {
  await clear();
  await enqueueJob(db, 'transcode', { videoId: 'v3' }, { subjectId: 'v3' });
  const running = (await claimJob(db, 'w.5', 5000))!;
  await enqueueJob(db, 'transcode', { videoId: 'v3' }, { subjectId: 'v3' });
  expect(await cancelJobs(db, 'v3')).toHaveLength(2);
  expect(await heartbeat(db, ['w.5'], 5000)).toEqual(['w.5']);
  expect(await finishJob(db, running, { done: true })).toBeUndefined();
  expect(await claimJob(db, 'w.6', 5000)).toBeUndefined();
});

test('workers in two processes claiming at once never take the same job', async () => {
  await clear();
  const count = 400;
  for (let i = 0; i < count; i++) await enqueueJob(db, 'backup', {});
  const startAt = String(Date.now() + 3000);
  const claimer = (name: string) =>
    Bun.spawn(['bun', join(import.meta.dir, 'test-claimer.ts'), target, name, '4', startAt], {
      stdout: 'pipe',
      stderr: 'inherit',
    });
  const processes = [claimer('a'), claimer('b')];
  const taken = await Promise.all(
    processes.map(async (child) => {
      const out = await new Response(child.stdout).text();
      expect(await child.exited).toBe(0);
      return JSON.parse(out) as string[];
    }),
  );
  const [a = [], b = []] = taken;
  expect(a.length + b.length).toBe(count);
  expect(new Set([...a, ...b]).size).toBe(count);
  // Both took part (the race was real).
  expect(a.length).toBeGreaterThan(0);
  expect(b.length).toBeGreaterThan(0);
});

test('a job whose worker keeps dying is given up after MAX_INTERRUPTIONS, with a reason, through its handler', async () => {
  await clear();
  const job = await enqueueJob(db, 'backup', {}, { subjectId: 'poison' });
  // Each run's worker dies (no heartbeat, no finish): the lease runs out and the next worker takes it back.
  await claimJob(db, 'dying.0', 100);
  for (let i = 1; i <= MAX_INTERRUPTIONS; i++) {
    await Bun.sleep(150);
    const claimed = await claimJob(db, `dying.${i}`, 100);
    expect(claimed).toMatchObject({ id: job?.id, attempts: 1, interruptions: i, resumed: true });
  }
  await Bun.sleep(150);
  const failures: { reason: string; final: boolean }[] = [];
  const runner = createJobRunner({
    db,
    concurrency: 1,
    leaseMs: 1000,
    pollMs: 50,
    handlers: {
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
  const [row] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
  expect(row?.state).toBe('failed');
});

test('a worker whose lease ran out stops its run (signal aborted) and its result is dropped', async () => {
  await clear();
  const job = await enqueueJob(db, 'backup', {}, { subjectId: 'slow' });
  let aborted = false;
  const runner = createJobRunner({
    db,
    concurrency: 1,
    leaseMs: 600,
    pollMs: 50,
    handlers: {
      backup: {
        run: async (_payload, { signal }) => {
          // Another worker takes the job while this one runs (as if this host had frozen past its lease).
          await db.update(jobs).set({ leaseOwner: 'thief.1' }).where(eq(jobs.id, job!.id));
          const deadline = Date.now() + 5000;
          while (!signal.aborted && Date.now() < deadline) await Bun.sleep(20);
          aborted = signal.aborted;
        },
      },
    },
  });
  runner.start();
  const deadline = Date.now() + 5000;
  while (!aborted && Date.now() < deadline) await Bun.sleep(20);
  while (!runner.isIdle() && Date.now() < deadline) await Bun.sleep(20);
  await runner.stop();
  expect(aborted).toBe(true);
  // The thief's claim is untouched.
  const [row] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
  expect(row).toMatchObject({ state: 'running', leaseOwner: 'thief.1' });
});

test('periodic work runs once per period however many workers run', async () => {
  await clear();
  let runs = 0;
  const runner = () =>
    createJobRunner({
      db,
      concurrency: 2,
      leaseMs: 1000,
      pollMs: 20,
      handlers: {
        sweep: {
          everyMs: 60_000,
          run: async () => {
            runs++;
            await Bun.sleep(100);
          },
        },
      },
    });
  const workers = [runner(), runner(), runner()];
  try {
    for (const worker of workers) worker.start();
    await Bun.sleep(1000);
    expect(runs).toBe(1);
    const [row] = await db
      .select()
      .from(jobs)
      .where(eq(jobs.id, periodicJobId('sweep')));
    expect(row?.state).toBe('queued');
    expect(await db.$count(jobs, eq(jobs.type, 'sweep'))).toBe(1);
    // Due again: the next period runs once too.
    await db
      .update(jobs)
      .set({ runAfter: 0 })
      .where(eq(jobs.id, periodicJobId('sweep')));
    await Bun.sleep(800);
    expect(runs).toBe(2);
  } finally {
    for (const worker of workers) await worker.stop();
  }
});

test("a job whose payload does not parse as its type's fails for good, with why, and never runs", async () => {
  await clear();
  // Typed at enqueue; a row is data all the same (an older version's, or written by hand).
  const job = await enqueueJob(db, 'transcode', { videoId: '../../etc/passwd' }, { subjectId: 'bad' });
  let ran = false;
  const runner = createJobRunner({
    db,
    concurrency: 1,
    pollMs: 50,
    handlers: {
      transcode: {
        run: async () => {
          ran = true;
        },
      },
    },
  });
  runner.start();
  const deadline = Date.now() + 5000;
  let row: typeof jobs.$inferSelect | undefined;
  do {
    await Bun.sleep(50);
    [row] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
  } while (row?.state !== 'failed' && Date.now() < deadline);
  await runner.stop();
  expect(ran).toBe(false);
  expect(row).toMatchObject({
    state: 'failed',
    lastError: 'This transcode job cannot run: its payload is not one this version reads.',
  });
});

test('a worker that could not renew its lease for most of it (a frozen process) stops before another may take over', async () => {
  await clear();
  const job = await enqueueJob(db, 'backup', {}, { subjectId: 'frozen' });
  let aborted = false;
  const runner = createJobRunner({
    db,
    concurrency: 1,
    leaseMs: 600,
    pollMs: 50,
    handlers: {
      backup: {
        run: async (_payload, { signal }) => {
          // The process freezes (here: the event loop is blocked) past 80 % of the lease: no heartbeat ran.
          const until = performance.now() + 550;
          while (performance.now() < until) {}
          const deadline = Date.now() + 3000;
          while (!signal.aborted && Date.now() < deadline) await Bun.sleep(10);
          aborted = signal.aborted;
        },
      },
    },
  });
  runner.start();
  const deadline = Date.now() + 5000;
  while (!aborted && Date.now() < deadline) await Bun.sleep(20);
  while (!runner.isIdle() && Date.now() < deadline) await Bun.sleep(20);
  await runner.stop();
  expect(aborted).toBe(true);
  // It did not finish the job: it is left to whoever takes it back once the lease ran out.
  const [row] = await db.select().from(jobs).where(eq(jobs.id, job!.id));
  expect(row?.state).toBe('running');
});
