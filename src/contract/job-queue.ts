import { z } from 'zod';
import type { Job } from '../db/schema';
import type { JobType } from '../jobs/types';
import { isoTime } from './users';
import { videoJson } from './videos';

/** What the administrator reads for each job type (a new type fails the type check until it is named here). */
export const JOB_TYPE_NAMES: Record<JobType, string> = {
  transcode: 'Video processing',
  slides: 'Slide index',
  download: 'Offline MP4',
  notify: 'Notifications',
  'send-mail': 'Notification mail',
  digest: 'Daily digests',
  'due-reminders': 'Due-date reminders',
  backup: 'Backup',
  sweep: 'Cleanup',
  'lti-roster-sync': 'LMS roster sync',
  'lti-rosters': 'Daily LMS rosters',
  'lti-score': 'LMS grade',
};

/** A type this version does not know (a newer worker's row) is shown by its own name. */
export const jobTypeName = (type: string) => JOB_TYPE_NAMES[type as JobType] ?? type;

/** One job of the administrator's queue (`GET /api/admin/overview`). */
export const queueEntryJson = z.object({
  _id: z.string(),
  type: z.string(),
  /** The type as people read it: "Slide index", "Offline MP4", "Notification mail"… */
  typeName: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  /** The video the job works on (processing, slide index, offline MP4); null for the others. */
  videoId: z.string().nullable(),
  fileName: z.string().nullable(),
  videoStatus: videoJson.shape.status.nullable(),
  /** The topic and class the job is for (the video's lecture, or a notification's; null when there is none). */
  lectureTitle: z.string().nullable(),
  courseId: z.string().nullable(),
  className: z.string().nullable(),
  /** How many people a notification mail job writes to (never who); null for the other types. */
  recipients: z.number().int().nullable(),
  createdAt: isoTime,
});
export type QueueEntryJson = z.infer<typeof queueEntryJson>;

/** What the queue's query knows of a job's subject. */
export type QueueSubject = {
  videoId: string | null;
  fileName: string | null;
  videoStatus: QueueEntryJson['videoStatus'];
  lectureTitle: string | null;
  courseId: string | null;
  className: string | null;
  recipients: number | null;
};

export function toQueueEntryJson(job: Job, subject: QueueSubject): QueueEntryJson {
  return {
    _id: job.id,
    type: job.type,
    typeName: jobTypeName(job.type),
    state: job.state,
    attempts: job.attempts,
    lastError: job.lastError,
    videoId: subject.videoId,
    fileName: subject.fileName,
    videoStatus: subject.videoStatus,
    lectureTitle: subject.lectureTitle,
    courseId: subject.courseId,
    className: subject.className,
    recipients: subject.recipients,
    createdAt: new Date(job.createdAt).toISOString(),
  };
}
