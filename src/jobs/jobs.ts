import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { greatest, nowMs, skipLocked } from '../db/dialect';
import { type Job, jobs, workers } from '../db/schema';
import { transaction } from '../db/transaction';
import { emit } from '../events/events';
import { newId } from '../lib/ids';
import type { JobChange, JobPayload, JobType } from './types';

export type { JobPayload, JobType } from './types';

/** How long a claimed job counts as alive without a heartbeat; a worker renews it every third of that. */
export const DEFAULT_LEASE_MS = 30_000;
/** A failed attempt waits this long times the attempt number before the next. */
const RETRY_BACKOFF_MS = 2_000;

/** Tells the job's subject (through its listener in src/wiring.ts) in the caller's transaction. */
const project = (tx: Db, change: JobChange) => emit(tx, { type: 'job-changed', change });

export type EnqueueOptions = {
  subjectId?: string;
  maxAttempts?: number;
  /** Not before this many ms from now (by the database clock). */
  delayMs?: number;
  /** A fixed id: a second enqueue with it adds nothing (the periodic jobs). */
  id?: string;
  /** Higher runs later: a due job of a lower number is always claimed first (the slide index waits for transcodes). */
  priority?: number;
};

/**
 * Adds a job; a worker in this process or another one takes it up. Answers the new row, or undefined when a job
 * with the same fixed `id` already exists.
 */
export async function enqueueJob<T extends JobType>(
  db: Db,
  type: T,
  payload: JobPayload<T>,
  options: EnqueueOptions = {},
) {
  const [job] = await db
    .insert(jobs)
    .values({
      id: options.id ?? newId(),
      type,
      payload: JSON.stringify(payload),
      subjectId: options.subjectId ?? null,
      state: 'queued',
      attempts: 0,
      maxAttempts: options.maxAttempts ?? 3,
      runAfter: sql`${nowMs(db)} + ${options.delayMs ?? 0}`,
      priority: options.priority ?? 0,
    })
    .onConflictDoNothing({ target: jobs.id })
    .returning();
  return job as Job | undefined;
}

/** A cancel's reason, as the subject's owner reads it. */
export const CANCELLED_BY_ADMIN = 'Processing was cancelled by an administrator. Retry it or delete it.';

/**
 * Cancels the waiting and running jobs about `subjectId`, and projects that onto the subject, in one transaction;
 * a running one is stopped by its worker's next heartbeat. Answers the cancelled jobs' ids.
 */
export async function cancelJobs(db: Db, subjectId: string, reason = CANCELLED_BY_ADMIN) {
  return transaction(db, async (tx) => {
    const cancelled = await tx
      .update(jobs)
      .set({ state: 'cancelled', finishedAt: nowMs(tx), lastError: reason, leaseOwner: null, leaseUntil: null })
      .where(and(eq(jobs.subjectId, subjectId), inArray(jobs.state, ['queued', 'running'])))
      .returning();
    if (cancelled[0]) await project(tx, { to: 'cancelled', job: cancelled[0], reason });
    return cancelled.map((job) => job.id);
  });
}

/** How many times a job may be cut short by its worker dying before it is given up as the likely cause. */
export const MAX_INTERRUPTIONS = 5;

/**
 * Takes the oldest job that is due, or a running one whose lease ran out (its worker died), in one conditional
 * `UPDATE … WHERE id = (SELECT … LIMIT 1) RETURNING` (`FOR UPDATE SKIP LOCKED` on PostgreSQL), with lease times
 * from the database clock: two workers never take the same job, whatever their hosts' clocks say. `lease` is this
 * claim's own token (a worker's id plus a fresh part): every later change of the job is conditional on it.
 *
 * A take-back (`resumed`) is not an attempt (a server killed three times is not a broken video) but counts as an
 * interruption; past `MAX_INTERRUPTIONS` the runner gives the job up (a file that brings its worker down again and
 * again). The subject's projection runs in the same transaction.
 */
export async function claimJob(db: Db, lease: string, leaseMs: number): Promise<Job | undefined> {
  return transaction(db, async (tx) => {
    const now = nowMs(tx);
    const due = sql`((${jobs.state} = 'queued' and ${jobs.runAfter} <= ${now}) or (${jobs.state} = 'running' and ${jobs.leaseUntil} < ${now}))`;
    const wasRunning = sql`${jobs.state} = 'running'`;
    const [job] = await tx
      .update(jobs)
      .set({
        state: 'running',
        // A take-back goes on with the attempt it interrupted.
        attempts: sql`case when ${wasRunning} then ${jobs.attempts} else ${jobs.attempts} + 1 end`,
        interruptions: sql`case when ${wasRunning} then ${jobs.interruptions} + 1 else ${jobs.interruptions} end`,
        resumed: sql`case when ${wasRunning} then true else false end`,
        leaseOwner: lease,
        leaseUntil: sql`${now} + ${leaseMs}`,
        heartbeatAt: now,
      })
      .where(
        and(
          sql`${jobs.id} = (select ${jobs.id} from ${jobs} where ${due} order by ${jobs.priority}, ${jobs.runAfter}, ${jobs.createdAt} limit 1${skipLocked(tx)})`,
          // Checked again on the row itself: on PostgreSQL a row changed since the sub-select saw it is re-read.
          due,
        ),
      )
      .returning();
    if (!job) return undefined;
    await project(tx, { to: 'running', job });
    return job;
  });
}

/**
 * Renews the leases this worker holds (by the database clock); answers the leases it no longer holds (the job was
 * cancelled, or its lease ran out and another worker took it).
 */
export async function heartbeat(db: Db, leases: string[], leaseMs: number) {
  if (leases.length === 0) return [];
  const now = nowMs(db);
  const renewed = await db
    .update(jobs)
    .set({ leaseUntil: sql`${now} + ${leaseMs}`, heartbeatAt: now })
    .where(and(inArray(jobs.leaseOwner, leases), eq(jobs.state, 'running')))
    .returning({ lease: jobs.leaseOwner });
  const kept = new Set(renewed.map((row) => row.lease));
  return leases.filter((lease) => !kept.has(lease));
}

/** Whether the claim `lease` still holds its job (checked before a step that others could see, like publishing). */
export async function holdsLease(db: Db, jobId: string, lease: string) {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.state, 'running'), eq(jobs.leaseOwner, lease)))
    .limit(1);
  return row !== undefined;
}

export type JobOutcome =
  | { done: true; result?: unknown }
  /** A periodic job: done for now, due again in `everyMs`. */
  | { again: true; everyMs: number }
  | { error: string; final?: boolean }
  | { stopped: true };

/**
 * Ends a run this claim still holds: done, failed for good, back in the queue after a failed attempt, or (a
 * shutdown) back in the queue as if not tried. The subject's projection runs in the same transaction. Answers the
 * new state, or undefined when the claim no longer held the job (cancelled, or taken by another worker): then
 * nothing changed.
 */
export async function finishJob(db: Db, job: Job, outcome: JobOutcome) {
  if (!job.leaseOwner) throw new Error('finishJob: the job was not claimed');
  return transaction(db, async (tx) => {
    const now = nowMs(tx);
    const mine = and(eq(jobs.id, job.id), eq(jobs.state, 'running'), eq(jobs.leaseOwner, job.leaseOwner as string));
    const release = { leaseOwner: null, leaseUntil: null };
    if ('done' in outcome) {
      const [row] = await tx
        .update(jobs)
        .set({ state: 'done', finishedAt: now, lastError: null, ...release })
        .where(mine)
        .returning();
      if (!row) return undefined;
      await project(tx, { to: 'done', job: row, result: outcome.result });
      return 'done' as const;
    }
    if ('again' in outcome) {
      const [row] = await tx
        .update(jobs)
        .set({ state: 'queued', attempts: 0, lastError: null, runAfter: sql`${now} + ${outcome.everyMs}`, ...release })
        .where(mine)
        .returning({ id: jobs.id });
      return row ? ('queued' as const) : undefined;
    }
    if ('stopped' in outcome) {
      // A shutdown is not a failed attempt.
      const [row] = await tx
        .update(jobs)
        .set({ state: 'queued', attempts: greatest(tx, 0, sql`${jobs.attempts} - 1`), runAfter: now, ...release })
        .where(mine)
        .returning();
      if (!row) return undefined;
      await project(tx, { to: 'queued', job: row, error: null });
      return 'queued' as const;
    }
    const final = job.attempts >= job.maxAttempts || outcome.final === true;
    const [row] = await tx
      .update(jobs)
      .set({
        state: final ? 'failed' : 'queued',
        lastError: outcome.error,
        runAfter: sql`${now} + ${RETRY_BACKOFF_MS * job.attempts}`,
        finishedAt: final ? now : null,
        ...release,
      })
      .where(mine)
      .returning();
    if (!row) return undefined;
    await project(
      tx,
      final ? { to: 'failed', job: row, error: outcome.error } : { to: 'queued', job: row, error: outcome.error },
    );
    return final ? ('failed' as const) : ('queued' as const);
  });
}

/** Records that this worker is alive (each heartbeat), and forgets workers silent for a day. */
export async function reportAlive(db: Db, owner: string) {
  const now = nowMs(db);
  await db
    .insert(workers)
    .values({ owner, beatAt: now })
    .onConflictDoUpdate({ target: workers.owner, set: { beatAt: now } });
  await db.delete(workers).where(lt(workers.beatAt, sql`${now} - ${24 * 60 * 60 * 1000}`));
}

/** How long ago (ms, by the database clock) any worker last reported alive, or undefined if none ever did. */
export async function sinceLastWorkerBeat(db: Db) {
  const [row] = await db
    .select({ ago: sql<number | null>`${nowMs(db)} - max(${workers.beatAt})` })
    .from(workers)
    .limit(1);
  return row?.ago === null || row?.ago === undefined ? undefined : Number(row.ago);
}

/** How many jobs are in each state (for health and the admin queue view). */
export async function jobCounts(db: Db) {
  const rows = await db.select({ state: jobs.state, n: sql<number>`count(*)` }).from(jobs).groupBy(jobs.state);
  return Object.fromEntries(rows.map((row) => [row.state, Number(row.n)])) as Partial<Record<Job['state'], number>>;
}
