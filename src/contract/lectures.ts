import type { Lecture, Video } from '../db/schema';
import { masterPlaylistPath, toVideoJson } from './videos';

/** Whether one user liked a lecture and where they got to in it. */
export type PersonalState = {
  liked: boolean;
  progress: { position: number; duration: number; completed: boolean } | null;
};

export function toLectureJson(lecture: Lecture, video: Video | undefined, publicUrl = '', mine?: PersonalState) {
  return {
    _id: lecture.id,
    courseId: lecture.courseId,
    nameOfTopic: lecture.nameOfTopic,
    videoLink: video ? `${publicUrl}${masterPlaylistPath(video.id)}` : null,
    noOfViews: lecture.noOfViews,
    noOfLikes: lecture.noOfLikes,
    createdAt: new Date(lecture.createdAt).toISOString(),
    video: video ? toVideoJson(video) : null,
    likedByMe: mine?.liked ?? false,
    myProgress: mine?.progress ?? null,
  };
}

export type LectureJson = ReturnType<typeof toLectureJson>;
