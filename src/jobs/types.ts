import type { Db } from '../db/client';
import type { Job } from '../db/schema';

export { type JobPayload, type JobType, jobPayloads } from '../job-payloads';

/**
 * What a job tells about the thing it runs on (its subject). A subject's state changes only through its
 * projection, a listener of `job-changed` (src/wiring.ts) run inside the transaction that changes the job
 * (PeerTube's video-state.ts shape), so the two never disagree: Cancel, Retry, a failed attempt and a take-back
 * each leave the subject in a state its owner can act on. The job types themselves are the app's
 * (src/job-payloads.ts, beside the worker's composition): this folder names none.
 *
 * A `JobChange` is what happened to a job, as its subject's projection sees it.
 */
export type JobChange =
  /** A worker took it up (a new attempt, or a take-back after a worker died). */
  | { to: 'running'; job: Job }
  | { to: 'done'; job: Job; result: unknown }
  /** Back in the queue: after a failed attempt (`error`) or a shutdown. */
  | { to: 'queued'; job: Job; error: string | null }
  | { to: 'failed'; job: Job; error: string }
  | { to: 'cancelled'; job: Job; reason: string };

export type Projection = (tx: Db, subjectId: string, change: JobChange) => Promise<void>;
