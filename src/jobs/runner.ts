import { hostname } from 'node:os';
import type { Db } from '../db/client';
import type { Job } from '../db/schema';
import { newId } from '../lib/ids';
import { claimJob, DEFAULT_LEASE_MS, enqueueJob, finishJob, heartbeat, MAX_INTERRUPTIONS, reportAlive } from './jobs';
import { type JobPayload, type JobType, jobPayloads } from './types';

export type JobContext = {
  job: Job;
  /** Aborted when the job is cancelled, its lease is lost, or the worker stops. */
  signal: AbortSignal;
  /** Whether the job's lease ran out under a worker that died (this run took it back). */
  takenBack: boolean;
  /** This claim's lease token: every write about the run is conditional on it still holding the job. */
  lease: string;
  /** A path-safe id of this attempt (unique per claim): name local work after it, never after the subject alone. */
  attempt: string;
  log: (line: string) => void;
};

/**
 * What a job type does. `run` answers a result that the subject's projection gets with the job's `done`;
 * `finished` runs after that commit (only when this run held the job to the end: a run that lost its lease gets
 * no say). A periodic type (`everyMs`) has one row that comes due again `everyMs` after each run, so however many
 * workers run, it runs once per period.
 */
export type JobHandler<P = any, R = unknown> = {
  run(payload: P, context: JobContext): Promise<R>;
  finished?(payload: P, result: R): Promise<void>;
  /** After a failed attempt's commit (`final` on the last one): clean up what others could see of the run. */
  failed?(payload: P, error: string, final: boolean): Promise<void>;
  everyMs?: number;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

/** A worker renews its leases (and reports alive) every third of the lease. */
export const heartbeatMs = (leaseMs: number) => Math.max(200, Math.floor(leaseMs / 3));

/** This host's name as a worker's id carries it (letters, digits and dashes): a worker's healthcheck finds its own. */
export const HOST =
  hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 40) || 'host';

/** The fixed id of a periodic type's one row. */
export const periodicJobId = (type: JobType) => `periodic-${type}`;

type Running = { job: Job; controller: AbortController; done: Promise<void>; renewedAt: number };

/**
 * Claims due jobs from the database and runs them through `handlers`, `concurrency` at a time. Runs in the server
 * process (`classroom all`) or alone (`classroom worker`) against the same database; any number may run at once,
 * on any number of hosts: claims are atomic and leases run on the database clock.
 * `chores` are this process's own housekeeping (its host's scratch folders), every `choresEveryMs`.
 */
/** A handler per job type, each taking its type's payload. */
export type JobHandlers = { [T in JobType]?: JobHandler<JobPayload<T>, any> };

export function createJobRunner(options: {
  db: Db;
  handlers: JobHandlers;
  concurrency: number;
  leaseMs?: number;
  pollMs?: number;
  chores?: () => Promise<void>;
  choresEveryMs?: number;
  log?: (line: string) => void;
}) {
  const { db, handlers } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const log = options.log ?? (() => {});
  const owner = `worker-${HOST}-${process.pid}-${newId().slice(0, 6)}`;
  /** By lease token. */
  const running = new Map<string, Running>();
  let stopped = true;
  let claiming = false;
  const timers: ReturnType<typeof setInterval>[] = [];

  async function run(job: Job, lease: string, entry: Running) {
    const handler = handlers[job.type as JobType] as JobHandler | undefined;
    const parsed = jobPayloads[job.type as JobType]?.safeParse(JSON.parse(job.payload));
    if (!parsed?.success) {
      const reason = `This ${job.type} job cannot run: its payload is not one this version reads.`;
      await finishJob(db, job, { error: reason, final: true });
      log(`[jobs] ${job.type} job ${job.id}: ${reason}`);
      return;
    }
    const payload = parsed.data;
    const { signal } = entry.controller;
    const periodic = handler?.everyMs;
    if (job.resumed) log(`[jobs] taking back ${job.type} job ${job.id} (its worker stopped renewing the lease)`);
    if (job.resumed && job.interruptions > MAX_INTERRUPTIONS && !periodic) {
      // Its worker died every time it ran: the job itself is the likely cause. Give up, with a reason people read.
      const reason = `Processing stopped unexpectedly ${job.interruptions} times on this file. It may be damaged: please export it again and upload it.`;
      if (await finishJob(db, job, { error: reason, final: true })) await handler?.failed?.(payload, reason, true);
      log(`[jobs] ${job.type} job ${job.id} given up after ${job.interruptions} interruptions`);
      return;
    }
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      const result = await handler.run(payload, {
        job,
        signal,
        takenBack: job.resumed,
        lease,
        attempt: lease.slice(lease.lastIndexOf('.') + 1),
        log,
      });
      if (signal.aborted) throw signal.reason ?? new Error('aborted');
      const state = await finishJob(db, job, periodic ? { again: true, everyMs: periodic } : { done: true, result });
      if (state === 'done') await handler.finished?.(payload, result);
      if (state === undefined) log(`[jobs] ${job.type} job ${job.id} ended after its lease was lost: result dropped`);
    } catch (error) {
      if (signal.aborted) {
        // A shutdown puts the job back; a cancel or a lost lease leaves it to whoever changed it.
        if (signal.reason === STOPPING) await finishJob(db, job, { stopped: true });
        return;
      }
      const reason = (error as Error).message?.slice(0, 500) || 'Failed unexpectedly.';
      const state = await finishJob(db, job, periodic ? { again: true, everyMs: periodic } : { error: reason });
      log(`[jobs] ${job.type} job ${job.id} failed (attempt ${job.attempts}, now ${state ?? 'not ours'}): ${reason}`);
      if (state && !periodic) await handler?.failed?.(payload, reason, state === 'failed');
    }
  }

  /** Claims and starts jobs while there is room. */
  async function wake() {
    if (claiming) return;
    claiming = true;
    try {
      while (!stopped && running.size < options.concurrency) {
        const lease = `${owner}.${newId()}`;
        const job = await claimJob(db, lease, leaseMs);
        if (!job) return;
        const entry: Running = {
          job,
          controller: new AbortController(),
          done: Promise.resolve(),
          renewedAt: performance.now(),
        };
        running.set(lease, entry);
        entry.done = run(job, lease, entry)
          .catch((error) => log(`[jobs] job ${job.id} crashed: ${(error as Error).message}`))
          .finally(() => {
            running.delete(lease);
            void wake();
          });
      }
    } finally {
      claiming = false;
    }
  }

  function lose(lease: string, why: Error) {
    const entry = running.get(lease);
    if (!entry || entry.controller.signal.aborted) return;
    log(`[jobs] ${entry.job.type} job ${entry.job.id}: ${why.message}`);
    entry.controller.abort(why);
  }

  /**
   * Renews the leases; a job that was cancelled, or taken by another worker, is stopped. A worker that cannot reach
   * the database for a whole lease stops its jobs too: by then another worker may have taken them.
   */
  async function beat() {
    // Not renewed for most of a lease (the database did not answer, or this process was frozen): by the database's
    // clock the lease is about to run out and another worker may take the job, so stop before it can.
    for (const [lease, entry] of running) {
      if (performance.now() - entry.renewedAt > leaseMs * UNRENEWED_STOP) lose(lease, LOST);
    }
    const leases = [...running.keys()];
    try {
      await reportAlive(db, owner);
      const lost = await heartbeat(db, leases, leaseMs);
      const at = performance.now();
      for (const lease of leases) {
        const entry = running.get(lease);
        if (entry && !lost.includes(lease)) entry.renewedAt = at;
      }
      for (const lease of lost) lose(lease, LOST);
    } catch (error) {
      for (const [lease, entry] of running) {
        if (performance.now() - entry.renewedAt > leaseMs * UNRENEWED_STOP) lose(lease, LOST);
      }
      throw error;
    }
  }

  const safely = (what: string, task: () => Promise<unknown>) => () =>
    void task().catch((error) => log(`[jobs] ${what} failed: ${(error as Error).message}`));

  /** The one row of each periodic type (a second worker's insert adds nothing). */
  async function ensurePeriodic() {
    for (const [type, handler] of Object.entries(handlers)) {
      if (handler?.everyMs) await enqueueJob(db, type as JobType, {}, { id: periodicJobId(type as JobType) });
    }
  }

  return {
    owner,
    start() {
      stopped = false;
      timers.push(setInterval(safely('claim', wake), options.pollMs ?? 1000));
      timers.push(setInterval(safely('heartbeat', beat), heartbeatMs(leaseMs)));
      safely('heartbeat', beat)();
      if (options.chores) {
        const chores = options.chores;
        timers.push(setInterval(safely('cleanup', chores), options.choresEveryMs ?? 15 * 60 * 1000));
        safely('cleanup', chores)();
      }
      safely('periodic jobs', async () => {
        await ensurePeriodic();
        await wake();
      })();
    },
    /** Looks for work now instead of at the next poll. */
    wake: () => safely('claim', wake)(),
    /** Stops jobs this process runs (the database change was already made, by cancelJobs). */
    abortLocal(jobIds: string[]) {
      for (const [lease, entry] of running) if (jobIds.includes(entry.job.id)) lose(lease, CANCELLED);
    },
    /** Stops claiming, stops the running jobs (they go back to the queue) and waits for them. */
    async stop() {
      stopped = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      const entries = [...running.values()];
      for (const entry of entries) entry.controller.abort(STOPPING);
      await Promise.all(entries.map((entry) => entry.done));
    },
    isIdle: () => running.size === 0,
  };
}

/** The share of a lease after which a run whose lease could not be renewed stops itself. */
const UNRENEWED_STOP = 0.8;
const STOPPING = new Error('stopping');
const LOST = new Error(
  'lease lost (cancelled, or taken by another worker): stopping, touching nothing of the new owner',
);
const CANCELLED = new Error('cancelled');
