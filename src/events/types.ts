import type { JobChange } from '../jobs/types';

/**
 * Every event a write may emit, as a union on `type` (as the job payloads are). A writer says what happened; what
 * follows from it (a projection, a search entry, a notification, a job) is a listener in src/wiring.ts.
 */
export type AppEvent =
  /** A job changed state (claimed, done, back in the queue, failed, cancelled): its subject's projection follows. */
  | { type: 'job-changed'; change: JobChange }
  /** A video's transcode is done: it plays now. */
  | { type: 'video-ready'; videoId: string }
  /** A lecture was made (`created`) or changed; the flags say which of its parts are new. */
  | {
      type: 'lecture-saved';
      lectureId: string;
      created: boolean;
      title: boolean;
      chapters: boolean;
      video: boolean;
    }
  /** A caption file was added or replaced. */
  | { type: 'caption-saved'; caption: { id: string; lectureId: string; vtt: string } }
  /** A comment (or a reply) was posted. */
  | { type: 'comment-posted'; commentId: string }
  /** A video's slides, their titles or hiding, or its index switch changed (for one lecture, or every one showing it). */
  | { type: 'slides-changed'; videoId: string; lectureId?: string }
  /** A student's coverage of a lecture grew (a progress report was counted). */
  | { type: 'coverage-recorded'; lectureId: string; userId: string }
  /** A student's answer to a lecture's question was kept, or marked by the teacher. */
  | { type: 'answer-recorded'; lectureId: string; userId: string }
  /** An LMS link's grade source changed: its students' grades follow. */
  | { type: 'lti-link-changed'; linkId: string }
  /** A student left a class or was removed from it: what was kept about them there goes. */
  | { type: 'student-left'; courseId: string; studentId: string }
  /** A teacher's account was made and waits for an administrator's approval. */
  | { type: 'teacher-waits'; teacherId: string }
  /** An administrator changed a teacher's approval (only a real change: a second Approve emits nothing). */
  | { type: 'teacher-decided'; teacherId: string; status: 'approved' | 'declined' };

export type AppEventType = AppEvent['type'];
export type EventOf<T extends AppEventType> = Extract<AppEvent, { type: T }>;
