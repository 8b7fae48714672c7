import type { Caption, Lecture, Video } from '../db/schema';
import { masterPlaylistPath, toVideoJson } from './videos';

/** Whether one user liked a lecture and where they got to in it. */
export type PersonalState = {
  liked: boolean;
  progress: { position: number; duration: number; completed: boolean } | null;
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
) {
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
  };
}

export type LectureJson = ReturnType<typeof toLectureJson>;

/** The WebVTT file of a lecture's captions: served to the class's members only. */
export const captionUrl = (lectureId: string, captionId: string) =>
  `/api/lectures/${lectureId}/captions/${captionId}.vtt`;

/** One caption track as the API answers it (`POST /api/lectures/{id}/captions`, a lecture's `captions`). */
export const toCaptionJson = (lectureId: string, caption: Pick<Caption, 'id' | 'language' | 'label'>) => ({
  id: caption.id,
  language: caption.language,
  label: caption.label,
  url: captionUrl(lectureId, caption.id),
});
export type CaptionJson = ReturnType<typeof toCaptionJson>;
