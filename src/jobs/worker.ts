import type { Config } from '../config';
import type { Db } from '../db/client';
import { sweepMedia } from '../media/sweep';
import { transcodeHandler } from '../media/transcode-job';
import type { Storage } from '../storage/storage';
import { createJobsClient } from './client';
import { createJobRunner } from './runner';

/** The job runner with every handler and the periodic cleanup: what `main.ts` runs in-process and `src/worker.ts` alone. */
export function createWorker(deps: { config: Config; db: Db; storage: Storage; log?: (line: string) => void }) {
  const { config, db, storage } = deps;
  const log = deps.log ?? ((line: string) => console.log(line));
  const runner = createJobRunner({
    db,
    handlers: { transcode: transcodeHandler({ config, db, storage }) },
    concurrency: config.transcodeConcurrency,
    leaseMs: config.jobLeaseMs,
    log,
    chores: async () => {
      const removed = await sweepMedia({ config, db, storage, jobs: createJobsClient(db, runner) });
      if (removed) log(`[media] cleanup removed ${removed} leftover file(s) or video(s)`);
    },
  });
  return runner;
}
