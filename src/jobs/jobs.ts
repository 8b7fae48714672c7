import { and, asc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { type Job, jobs, workers } from '../db/schema';
import { transaction } from '../db/transaction';
import { newId } from '../lib/ids';

/** How long a claimed job counts as alive without a heartbeat; a worker renews it every third of that. */
export const DEFAULT_LEASE_MS = 30_000;
/** A failed attempt waits this long times the attempt number before the next. */
const RETRY_BACKOFF_MS = 2_000;

export type JobType = 'transcode' | 'backup';
export type EnqueueOptions = { subjectId?: string; maxAttempts?: number; runAfter?: number; attempts?: number };

/** Adds a job; a worker in this process or another one takes it up. */
export async function enqueueJob(db: Db, type: JobType, payload: unknown, options: EnqueueOptions = {}) {
  return (await db
    .insert(jobs)
    .values({
      id: newId(),
      type,
      payload: JSON.stringify(payload),
      subjectId: options.subjectId ?? null,
      state: 'queued',
      attempts: options.attempts ?? 0,
      maxAttempts: options.maxAttempts ?? 3,
      runAfter: options.runAfter ?? Date.now(),
    })
    .returning()
    .get()) as Job;
}

/** Cancels the waiting and running jobs about `subjectId`; a running one is stopped by its worker's next heartbeat. */
export async function cancelJobs(db: Db, subjectId: string, now = Date.now()) {
  return db
    .update(jobs)
    .set({ state: 'cancelled', finishedAt: now, leaseOwner: null, leaseUntil: null })
    .where(and(eq(jobs.subjectId, subjectId), inArray(jobs.state, ['queued', 'running'])))
    .returning({ id: jobs.id });
}

/** How many times a job may be cut short by its worker dying before it is given up as the likely cause. */
export const MAX_INTERRUPTIONS = 5;

/**
 * Takes the oldest job that is due, or a running one whose lease ran out (its worker died). A take-back is not an
 * attempt (a server killed three times is not a broken video) but counts as an interruption; past
 * `MAX_INTERRUPTIONS` the runner gives the job up (a file that brings its worker down again and again). Returns it
 * with `takenBack` set.
 */
export async function claimJob(db: Db, owner: string, leaseMs: number, now = Date.now()) {
  return transaction(db, async (tx) => {
    const next = await tx
      .select()
      .from(jobs)
      .where(
        or(
          and(eq(jobs.state, 'queued'), lte(jobs.runAfter, now)),
          and(eq(jobs.state, 'running'), lt(jobs.leaseUntil, now)),
        ),
      )
      .orderBy(asc(jobs.runAfter), asc(jobs.createdAt))
      .limit(1)
      .get();
    if (!next) return undefined;
    const claimed = (await tx
      .update(jobs)
      .set({
        state: 'running',
        // A take-back goes on with the attempt it interrupted.
        attempts: next.state === 'running' ? next.attempts : sql`${jobs.attempts} + 1`,
        interruptions: next.state === 'running' ? sql`${jobs.interruptions} + 1` : next.interruptions,
        leaseOwner: owner,
        leaseUntil: now + leaseMs,
        heartbeatAt: now,
      })
      .where(eq(jobs.id, next.id))
      .returning()
      .get()) as Job;
    return { job: claimed, takenBack: next.state === 'running' };
  });
}

/** Renews the lease of the jobs this worker runs; answers the ids it no longer owns (cancelled or taken). */
export async function heartbeat(db: Db, owner: string, ids: string[], leaseMs: number, now = Date.now()) {
  if (ids.length === 0) return [];
  const renewed = await db
    .update(jobs)
    .set({ leaseUntil: now + leaseMs, heartbeatAt: now })
    .where(and(inArray(jobs.id, ids), eq(jobs.state, 'running'), eq(jobs.leaseOwner, owner)))
    .returning({ id: jobs.id });
  const kept = new Set(renewed.map((row) => row.id));
  return ids.filter((id) => !kept.has(id));
}

/** Ends a job this worker owns: done, failed for good, or back in the queue after a failed attempt. */
export async function finishJob(
  db: Db,
  job: Job,
  owner: string,
  outcome: { done: true } | { error: string; final?: boolean } | { stopped: true },
  now = Date.now(),
) {
  const mine = and(eq(jobs.id, job.id), eq(jobs.state, 'running'), eq(jobs.leaseOwner, owner));
  const release = { leaseOwner: null, leaseUntil: null };
  if ('done' in outcome) {
    await db
      .update(jobs)
      .set({ state: 'done', finishedAt: now, lastError: null, ...release })
      .where(mine);
    return 'done' as const;
  }
  if ('stopped' in outcome) {
    // A shutdown is not a failed attempt.
    await db
      .update(jobs)
      .set({ state: 'queued', attempts: sql`max(0, ${jobs.attempts} - 1)`, runAfter: now, ...release })
      .where(mine);
    return 'queued' as const;
  }
  const final = job.attempts >= job.maxAttempts || outcome.final === true;
  await db
    .update(jobs)
    .set({
      state: final ? 'failed' : 'queued',
      lastError: outcome.error,
      runAfter: now + RETRY_BACKOFF_MS * job.attempts,
      finishedAt: final ? now : null,
      ...release,
    })
    .where(mine);
  return final ? ('failed' as const) : ('queued' as const);
}

/** Records that this worker is alive (each heartbeat), and forgets workers silent for a day. */
export async function reportAlive(db: Db, owner: string, now = Date.now()) {
  await db
    .insert(workers)
    .values({ owner, beatAt: now })
    .onConflictDoUpdate({ target: workers.owner, set: { beatAt: now } });
  await db.delete(workers).where(lt(workers.beatAt, now - 24 * 60 * 60 * 1000));
}

/** When any worker last reported alive, or undefined if none ever did. */
export async function lastWorkerBeat(db: Db) {
  return (
    (
      await db
        .select({ at: sql<number | null>`max(${workers.beatAt})` })
        .from(workers)
        .get()
    )?.at ?? undefined
  );
}

/** How many jobs are in each state (for health and the admin queue view). */
export async function jobCounts(db: Db) {
  const rows = await db.select({ state: jobs.state, n: sql<number>`count(*)` }).from(jobs).groupBy(jobs.state);
  return Object.fromEntries(rows.map((row) => [row.state, row.n])) as Partial<Record<Job['state'], number>>;
}
