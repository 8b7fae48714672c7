import type { Db } from '../db/client';
import type { Job } from '../db/schema';
import { newId } from '../lib/ids';
import { claimJob, DEFAULT_LEASE_MS, finishJob, heartbeat, type JobType, MAX_INTERRUPTIONS, reportAlive } from './jobs';

export type JobContext = {
  job: Job;
  /** Aborted when the job is cancelled, its lease is lost, or the worker stops. */
  signal: AbortSignal;
  /** Whether the job's lease ran out under a worker that died, so leftovers of that run may exist. */
  takenBack: boolean;
  log: (line: string) => void;
};

/** What a job type does. `failed` runs after each failed attempt, with `final` on the last one. */
export type JobHandler = {
  run(payload: any, context: JobContext): Promise<void>;
  failed?(payload: any, error: string, final: boolean, job: Job): Promise<void>;
  /** After the job was cancelled or stopped mid-run: undo what the run left half done. */
  interrupted?(payload: any, cancelled: boolean): Promise<void>;
};

export type JobRunner = ReturnType<typeof createJobRunner>;

/** A worker renews its leases (and reports alive) every third of the lease. */
export const heartbeatMs = (leaseMs: number) => Math.max(200, Math.floor(leaseMs / 3));

/**
 * Claims due jobs from the database and runs them through `handlers`, `concurrency` at a time. Runs in
 * the server process or alone (`src/worker.ts`) against the same database; any number may run at once.
 * Periodic `chores` (cleanup) run every `choresEveryMs`.
 */
export function createJobRunner(options: {
  db: Db;
  handlers: Record<JobType, JobHandler>;
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
  const owner = `worker-${process.pid}-${newId().slice(0, 6)}`;
  const running = new Map<string, { controller: AbortController; done: Promise<void>; cancelled: boolean }>();
  let stopped = true;
  let claiming = false;
  const timers: ReturnType<typeof setInterval>[] = [];

  async function run(job: Job, takenBack: boolean, controller: AbortController) {
    const handler = handlers[job.type as JobType];
    const payload = JSON.parse(job.payload);
    if (takenBack) log(`[jobs] taking back ${job.type} job ${job.id} (its worker stopped renewing the lease)`);
    if (takenBack && job.interruptions > MAX_INTERRUPTIONS) {
      // Its worker died every time it ran: the job itself is the likely cause. Give up, with a reason people read.
      const reason = `Processing stopped unexpectedly ${job.interruptions} times on this file. It may be damaged: please export it again and upload it.`;
      await finishJob(db, job, owner, { error: reason, final: true });
      log(`[jobs] ${job.type} job ${job.id} given up after ${job.interruptions} interruptions`);
      await handler?.failed?.(payload, reason, true, job);
      return;
    }
    try {
      if (!handler) throw new Error(`No handler for job type ${job.type}`);
      await handler.run(payload, { job, signal: controller.signal, takenBack, log });
      if (controller.signal.aborted) throw controller.signal.reason ?? new Error('aborted');
      await finishJob(db, job, owner, { done: true });
    } catch (error) {
      const entry = running.get(job.id);
      if (controller.signal.aborted) {
        const cancelled = entry?.cancelled ?? false;
        if (!cancelled) await finishJob(db, job, owner, { stopped: true });
        await handler?.interrupted?.(payload, cancelled);
        return;
      }
      const reason = (error as Error).message?.slice(0, 500) || 'Failed unexpectedly.';
      const state = await finishJob(db, job, owner, { error: reason });
      log(`[jobs] ${job.type} job ${job.id} failed (attempt ${job.attempts}, now ${state}): ${reason}`);
      await handler?.failed?.(payload, reason, state === 'failed', job);
    }
  }

  /** Claims and starts jobs while there is room. */
  async function wake() {
    if (claiming) return;
    claiming = true;
    try {
      while (!stopped && running.size < options.concurrency) {
        const claimed = await claimJob(db, owner, leaseMs);
        if (!claimed) return;
        const controller = new AbortController();
        const entry = { controller, cancelled: false, done: Promise.resolve() };
        running.set(claimed.job.id, entry);
        entry.done = run(claimed.job, claimed.takenBack, controller)
          .catch((error) => log(`[jobs] job ${claimed.job.id} crashed: ${(error as Error).message}`))
          .finally(() => {
            running.delete(claimed.job.id);
            void wake();
          });
      }
    } finally {
      claiming = false;
    }
  }

  /** Renews the leases; a job that was cancelled (or taken by another worker) is stopped. */
  async function beat() {
    await reportAlive(db, owner);
    const lost = await heartbeat(db, owner, [...running.keys()], leaseMs);
    for (const id of lost) {
      const entry = running.get(id);
      if (!entry) continue;
      entry.cancelled = true;
      entry.controller.abort(new Error('cancelled'));
    }
  }

  const safely = (what: string, task: () => Promise<unknown>) => () =>
    void task().catch((error) => log(`[jobs] ${what} failed: ${(error as Error).message}`));

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
      safely('claim', wake)();
    },
    /** Looks for work now instead of at the next poll. */
    wake: () => safely('claim', wake)(),
    /** Stops a job this process runs (the database change was already made by cancelJobs). */
    abortLocal(jobIds: string[]) {
      for (const id of jobIds) {
        const entry = running.get(id);
        if (!entry) continue;
        entry.cancelled = true;
        entry.controller.abort(new Error('cancelled'));
      }
    },
    /** Stops claiming, stops the running jobs (they go back to the queue) and waits for them. */
    async stop() {
      stopped = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      const entries = [...running.values()];
      for (const entry of entries) entry.controller.abort(new Error('stopping'));
      await Promise.all(entries.map((entry) => entry.done));
    },
    isIdle: () => running.size === 0,
  };
}
