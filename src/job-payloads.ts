import { z } from 'zod';
import { idSchema } from './contract/text';

/**
 * The payload of each job type (PeerTube's per-type payloads): what `enqueueJob` takes for that type, checked again
 * when a worker takes the job up (a row is data: a payload that does not parse fails the job for good, with why).
 */
export const jobPayloads = {
  transcode: z.object({ videoId: idSchema }),
  backup: z.object({}),
  /** The cluster's periodic cleanup (one row, due again every SWEEP_EVERY_MS). */
  sweep: z.object({}),
  /** Notifications (src/notifications): one event's recipients, a batch per run after `after`. */
  notify: z.object({
    event: z.enum(['lecture', 'comment']),
    subjectId: idSchema,
    after: idSchema.optional(),
  }),
  /** Notification mails to send (rows of `notifications`), within the mail rate; `chain`/`round` name a follow-on. */
  'send-mail': z.object({
    ids: z.array(idSchema).max(500),
    chain: z.string().max(200).optional(),
    round: z.number().int().min(0).max(1_000_000).optional(),
  }),
  /** The daily digests (periodic). */
  digest: z.object({}),
  /** Reminders a day before a lecture's due date (periodic; docs/teaching.md). */
  'due-reminders': z.object({}),
  /** An offline copy of a video's rung (a `downloads` row, its subject): media/download.ts. */
  download: z.object({ downloadId: idSchema }),
  /** A video's slide index (src/media/slides-job.ts): detection, thumbnails and words, after its transcode. */
  slides: z.object({ videoId: idSchema }),
  /** A class's rosters pulled from its LMS contexts (src/lti/nrps.ts); subject `lti-roster.<courseId>`. */
  'lti-roster-sync': z.object({ courseId: idSchema }),
  /** Every LMS-linked class's roster sync queued (periodic, daily). */
  'lti-rosters': z.object({}),
  /** A person's score for an LMS link sent to its gradebook (src/lti/ags.ts); subject `lti-score.<link>.<user>`. */
  'lti-score': z.object({ linkId: idSchema, userId: idSchema }),
};
export type JobType = keyof typeof jobPayloads;
export type JobPayload<T extends JobType> = z.infer<(typeof jobPayloads)[T]>;
