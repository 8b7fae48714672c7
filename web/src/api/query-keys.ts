import { providersKey } from '@lib/providers';

/**
 * Every key of the one query cache. A feature invalidates another's entries (an upload refreshes the class's
 * lectures) through these builders, so no feature imports another to name what it changed.
 */

/** Every cache entry about a class starts with `['courses', id]`: removing a class drops all of them. */
export const courseKeys = {
  all: ['courses'] as const,
  list: () => [...courseKeys.all, 'list'] as const,
  detail: (id: string) => [...courseKeys.all, id] as const,
  notes: (id: string) => [...courseKeys.all, id, 'notes'] as const,
  roster: (id: string) => [...courseKeys.all, id, 'students'] as const,
};

export const lectureKeys = {
  ofCourse: (courseId: string) => [...courseKeys.detail(courseId), 'lectures'] as const,
  progressOfCourse: (courseId: string) => [...courseKeys.detail(courseId), 'progress'] as const,
  comments: (lectureId: string) => ['lectures', lectureId, 'comments'] as const,
  chapters: (lectureId: string) => ['lectures', lectureId, 'chapters'] as const,
  slides: (lectureId: string) => ['lectures', lectureId, 'slides'] as const,
  /** The slide index made from one video of the lecture: a new video is a new index. */
  slideIndex: (lectureId: string, videoId: string | undefined) =>
    [...lectureKeys.slides(lectureId), videoId ?? null] as const,
  history: () => ['history'] as const,
  /** The teacher's table of the class (issue 33): under the progress key, so a changed lecture refreshes it. */
  insightOfCourse: (courseId: string, params: Record<string, string | number>) =>
    [...lectureKeys.progressOfCourse(courseId), 'insight', params] as const,
  /** One student's coverage of each lecture of the class (the teacher's, or the student's own). */
  insightOfStudent: (courseId: string, userId: string) =>
    [...lectureKeys.progressOfCourse(courseId), 'student', userId] as const,
  /** Where the class played a lecture (the teacher's strip over the seek bar). */
  strip: (lectureId: string) => ['lectures', lectureId, 'strip'] as const,
  /** A lecture's questions as the signed-in person may see them (the teacher's with their right answers). */
  questions: (lectureId: string) => ['lectures', lectureId, 'questions'] as const,
  /** The teacher's view of the answers to a lecture's questions. */
  questionResults: (lectureId: string) => ['lectures', lectureId, 'questions', 'results'] as const,
  /** A student's lectures due, across their classes. */
  todo: () => ['todo'] as const,
};

/** A class's LMS section (docs/lti.md): under the class, so removing the class drops it. */
export const lmsKeys = {
  ofCourse: (courseId: string) => [...courseKeys.detail(courseId), 'lms'] as const,
};

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: string) => [...adminKeys.all, 'users', q] as const,
  courses: () => [...adminKeys.all, 'courses'] as const,
  overview: () => [...adminKeys.all, 'overview'] as const,
  waitingTeachers: () => [...adminKeys.all, 'waiting-teachers'] as const,
  ltiPlatforms: () => [...adminKeys.all, 'lti-platforms'] as const,
  ltiTool: () => [...adminKeys.all, 'lti-tool'] as const,
};

export const searchKeys = {
  all: ['search'] as const,
  results: (q: string, courseId?: string) => [...searchKeys.all, q, courseId ?? null] as const,
};

/** The signed-in person's own settings, and what the server says about itself or an invite before sign-in. */
export const accountKeys = {
  providers: () => providersKey,
  signInMethods: () => ['users', 'sign-in-methods'] as const,
  notificationPrefs: () => ['users', 'notifications'] as const,
  appInfo: () => ['app'] as const,
  invite: (code: string | null) => ['invites', code] as const,
};
