import type { Db } from '../db/client';
import { CANCELLED_BY_ADMIN, cancelJobs, type EnqueueOptions, enqueueJob, type JobPayload, type JobType } from './jobs';
import type { JobRunner } from './runner';

/** What the HTTP app may do with jobs: add, cancel, and nudge a worker in this process (if there is one). */
export type JobsClient = {
  enqueue<T extends JobType>(type: T, payload: JobPayload<T>, options?: EnqueueOptions): Promise<void>;
  /** Cancels the jobs about `subjectId` (projected onto it with `reason`); answers how many there were. */
  cancel(subjectId: string, reason?: string): Promise<number>;
  wake(): void;
};

export function createJobsClient(db: Db, localRunner?: Pick<JobRunner, 'wake' | 'abortLocal'>): JobsClient {
  return {
    async enqueue(type, payload, options) {
      await enqueueJob(db, type, payload, options);
      localRunner?.wake();
    },
    async cancel(subjectId, reason = CANCELLED_BY_ADMIN) {
      const cancelled = await cancelJobs(db, subjectId, reason);
      // A worker in another process learns it at its next heartbeat.
      localRunner?.abortLocal(cancelled);
      return cancelled.length;
    },
    wake: () => localRunner?.wake(),
  };
}
