import type { Db } from '../db/client';
import { cancelJobs, type EnqueueOptions, enqueueJob, type JobType } from './jobs';
import type { JobRunner } from './runner';

/** What the HTTP app may do with jobs: add, cancel, and nudge a worker in this process (if there is one). */
export type JobsClient = {
  enqueue(type: JobType, payload: unknown, options?: EnqueueOptions): Promise<void>;
  cancel(subjectId: string): Promise<void>;
  wake(): void;
};

export function createJobsClient(db: Db, localRunner?: Pick<JobRunner, 'wake' | 'abortLocal'>): JobsClient {
  return {
    async enqueue(type, payload, options) {
      await enqueueJob(db, type, payload, options);
      localRunner?.wake();
    },
    async cancel(subjectId) {
      const cancelled = await cancelJobs(db, subjectId);
      localRunner?.abortLocal(cancelled.map((row) => row.id));
    },
    wake: () => localRunner?.wake(),
  };
}
