import { z } from 'zod';
import type { Caption, Lecture, Video } from '../db/schema';
import { chapterJson, chaptersOfLecture } from './chapters';
import { type MyCoverageJson, myCoverageJson } from './insight';
import { LIMITS } from './limits';
import { SLIDE_INDEX_STATES, slideIndexState } from './slides';
import { plainText } from './text';
import { isoTime } from './users';
import { masterPlaylistPath, processingStatusJson, toVideoJson, videoJson } from './videos';

/** Whether one user liked a lecture and where they got to in it. */
export type PersonalState = {
  liked: boolean;
  progress: { position: number; duration: number; completed: boolean } | null;
  /** The student's coverage of the lecture (src/contract/insight.ts); null for a teacher or before any report. */
  coverage?: MyCoverageJson | null;
};

/** The processing states the current open-source client reads on a lecture (`processingStatus`). */
const processingStatuses = {
  queued: 'pending',
  processing: 'processing',
  ready: 'completed',
  failed: 'failed',
  // Cancelled by an administrator: to a client, a video that did not process (Retry or Delete); `processingError` says why.
  cancelled: 'failed',
} as const satisfies Record<Video['status'], string>;
export type ProcessingStatus = (typeof processingStatuses)[Video['status']];

/** One caption track as the API answers it (`POST /api/lectures/{id}/captions`, a lecture's `captions`). */
export const captionJson = z.object({ id: z.string(), language: z.string(), label: z.string(), url: z.string() });
export type CaptionJson = z.infer<typeof captionJson>;

export const lectureJson = z.object({
  _id: z.string(),
  courseId: z.string(),
  nameOfTopic: z.string(),
  /** The master playlist's path once processing is complete; null before (never beside another status). */
  videoLink: z.string().nullable(),
  processingStatus: processingStatusJson.nullable(),
  processingError: z.string().nullable(),
  noOfViews: z.number().int(),
  noOfLikes: z.number().int(),
  createdAt: isoTime,
  video: videoJson.nullable(),
  likedByMe: z.boolean(),
  myProgress: z.object({ position: z.number(), duration: z.number(), completed: z.boolean() }).nullable(),
  captions: z.array(captionJson),
  description: z.string(),
  /** `[{ seconds, title }]` from the chapter editor or the description's timed lines (src/contract/chapters.ts). */
  chapters: z.array(chapterJson),
  /** The slide index's state (src/contract/slides.ts); null without a video. */
  slideIndex: z.enum(SLIDE_INDEX_STATES).nullable(),
  /** "Watch by": when the class's students should have watched it (beyond the spec), or null. */
  dueAt: isoTime.nullable(),
  /** The signed-in student's coverage (beyond the spec); null for the teacher or before any report. */
  myCoverage: myCoverageJson.nullable(),
  /** "No skipping ahead": a student's seek stops at the first unanswered question and at what they really played. */
  noSkip: z.boolean(),
});
export type LectureJson = z.infer<typeof lectureJson>;

/**
 * One lecture as every client sees it. `videoLink` is the path of the master playlist (path-only, so the app works
 * at any name and scheme the school uses) once processing is complete, and null before: `videoLink` and
 * `processingStatus` never disagree (a link only beside `completed`, as the spec's own backend answers). Our web plays
 * while the video transcodes through `video.playable` and `video.masterPlaylist` instead (docs/video-pipeline.md).
 */
export function toLectureJson(
  lecture: Lecture,
  video: Video | undefined,
  mine?: PersonalState,
  captions: Pick<Caption, 'id' | 'language' | 'label'>[] = [],
): LectureJson {
  return {
    _id: lecture.id,
    courseId: lecture.courseId,
    nameOfTopic: lecture.nameOfTopic,
    videoLink: video?.status === 'ready' ? masterPlaylistPath(video.id) : null,
    processingStatus: video ? processingStatuses[video.status] : null,
    processingError:
      video?.status === 'failed' || video?.status === 'cancelled'
        ? (video.error ?? 'The video could not be processed.')
        : null,
    noOfViews: lecture.noOfViews,
    noOfLikes: lecture.noOfLikes,
    createdAt: new Date(lecture.createdAt).toISOString(),
    video: video ? toVideoJson(video) : null,
    likedByMe: mine?.liked ?? false,
    myProgress: mine?.progress ?? null,
    captions: captions.map((caption) => toCaptionJson(lecture.id, caption)),
    description: lecture.description,
    /** `[{ seconds, title }]` from the chapter editor or the description's timed lines (src/contract/chapters.ts). */
    chapters: chaptersOfLecture(lecture, video ? video.durationMs / 1000 : undefined).chapters,
    slideIndex: slideIndexState(video),
    dueAt: lecture.dueAt === null ? null : new Date(lecture.dueAt).toISOString(),
    myCoverage: mine?.coverage ?? null,
    noSkip: lecture.noSkip,
  };
}

/** The WebVTT file of a lecture's captions: served to the class's members only. */
export const captionUrl = (lectureId: string, captionId: string) =>
  `/api/lectures/${lectureId}/captions/${captionId}.vtt`;

export const toCaptionJson = (lectureId: string, caption: Pick<Caption, 'id' | 'language' | 'label'>): CaptionJson => ({
  id: caption.id,
  language: caption.language,
  label: caption.label,
  url: captionUrl(lectureId, caption.id),
});

/** The language and label of a lecture's captions (the file comes beside them in the multipart form). */
export const captionFields = z.object({
  // A BCP 47 tag as browsers and HLS players read it: en, de, pt-BR, zh-Hant.
  language: z
    .string({ error: 'fields.captionLanguageRequired' })
    .trim()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/, 'fields.captionLanguageCode'),
  label: plainText({
    required: 'fields.captionLabelRequired',
    tooShort: 'fields.captionLabelRequired',
    tooLong: 'fields.captionLabelTooLong',
    min: 1,
    max: LIMITS.captionLabelMax,
    hidden: 'fields.captionLabelHidden',
  }),
});
