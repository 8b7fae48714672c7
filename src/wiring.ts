import type { Db } from './db/client';
import { deleteCoverageInCourse } from './db/queries/insight';
import { deleteAnswersInCourse } from './db/queries/questions';
import { type Listener, on } from './events/events';
import type { AppEventType } from './events/types';
import type { JobChange, Projection } from './jobs/types';
import { linkScoresMayHaveChanged, scoreMayHaveChanged } from './lti/ags';
import { projectDownload } from './media/download';
import { enqueueSlides, projectSlides } from './media/slide-index';
import { projectVideo } from './media/state';
import {
  commentPosted,
  lectureMayBeReady,
  teacherDecided,
  teacherWaits,
  videoBecameReady,
} from './notifications/notifications';
import { indexCaption, indexChapters, indexComment, indexTitle } from './search/index';
import { indexSlidesOfLecture, indexSlidesOfVideo } from './search/slides';

/** The projection of each job type that has a subject: its state follows the job's, in the job's transaction. */
const projections: Partial<Record<string, Projection>> = {
  transcode: projectVideo,
  download: projectDownload,
  slides: projectSlides,
};

async function project(tx: Db, change: JobChange) {
  const projection = projections[change.job.type];
  if (projection && change.job.subjectId) await projection(tx, change.job.subjectId, change);
}

/**
 * Every consequence of a write, in one place (docs/architecture.md, "What follows a write"). Each line is one
 * listener: what happens, after which event. They run in the writer's transaction, in the order written here.
 */
const consequences: { [T in AppEventType]?: Listener<T>[] } = {
  'job-changed': [(tx, { change }) => project(tx, change)],
  'video-ready': [
    // Its lectures' students are told, once per lecture (a re-transcode tells nobody again).
    (tx, { videoId }) => videoBecameReady(tx, videoId),
    // Then, at low priority, its slide index (the lecture plays meanwhile).
    (tx, { videoId }) => enqueueSlides(tx, videoId),
  ],
  'lecture-saved': [
    (tx, event) => event.title && indexTitle(tx, event.lectureId),
    // A chapter list ends where the video does: a new video changes its chapters too.
    (tx, event) => (event.chapters || event.video) && indexChapters(tx, event.lectureId),
    (tx, event) => event.video && indexSlidesOfLecture(tx, event.lectureId),
    // A lecture given a video that is already ready: its students are told now (once per lecture).
    (tx, event) => event.video && lectureMayBeReady(tx, event.lectureId),
  ],
  'caption-saved': [(tx, { caption }) => indexCaption(tx, caption)],
  'comment-posted': [
    (tx, { commentId }) => indexComment(tx, commentId),
    // Its lecture's teacher and (for a reply) the parent's author are told.
    (tx, { commentId }) => commentPosted(tx, commentId),
  ],
  // Their coverage of the class's lectures and their answers to its questions go with the enrollment (docs/teaching.md).
  'student-left': [
    (tx, { courseId, studentId }) => deleteCoverageInCourse(tx, courseId, studentId),
    (tx, { courseId, studentId }) => deleteAnswersInCourse(tx, courseId, studentId),
  ],
  // A lecture placed in an LMS gets the student's new score in its gradebook, a few seconds later (docs/lti.md).
  'coverage-recorded': [(tx, { lectureId, userId }) => scoreMayHaveChanged(tx, lectureId, userId)],
  'answer-recorded': [(tx, { lectureId, userId }) => scoreMayHaveChanged(tx, lectureId, userId)],
  'lti-link-changed': [(tx, { linkId }) => linkScoresMayHaveChanged(tx, linkId)],
  // Every administrator (but a disabled one) is told, once per teacher.
  'teacher-waits': [(tx, { teacherId }) => teacherWaits(tx, teacherId)],
  'teacher-decided': [(tx, { teacherId, status }) => teacherDecided(tx, teacherId, status)],
  'slides-changed': [
    (tx, event) =>
      event.lectureId ? indexSlidesOfLecture(tx, event.lectureId) : indexSlidesOfVideo(tx, event.videoId),
  ],
};

let wired = false;

/** Subscribes every consequence, once per process (the app, the worker and tests each call it). */
export function wireConsequences() {
  if (wired) return;
  wired = true;
  const subscribe = <T extends AppEventType>(type: T) => {
    for (const listener of consequences[type] ?? []) on(type, listener);
  };
  for (const type of Object.keys(consequences) as AppEventType[]) subscribe(type);
}
