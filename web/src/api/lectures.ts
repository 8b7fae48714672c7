import { request, uploadWithProgress } from './client';

export type VideoStatus = 'queued' | 'processing' | 'ready' | 'failed';

export type VideoInfo = {
  _id: string;
  status: VideoStatus;
  progress: number;
  etaSeconds: number | null;
  attempts: number;
  error: string | null;
  playable: boolean;
  durationSeconds: number;
  width: number;
  height: number;
  fileName: string;
  masterPlaylist: string;
  posterUrl: string | null;
};

export type Lecture = {
  _id: string;
  courseId: string;
  nameOfTopic: string;
  videoLink: string | null;
  noOfViews: number;
  noOfLikes: number;
  createdAt: string;
  video: VideoInfo | null;
  likedByMe: boolean;
  myProgress: { position: number; duration: number; completed: boolean } | null;
};

export const listLectures = (courseId: string) => request<Lecture[]>('GET', `/lectures/course/${courseId}`);

export const getLecture = (id: string) => request<Lecture>('GET', `/lectures/${id}`);

export const createLecture = (body: { courseId: string; nameOfTopic: string; videoLink: string | null }) =>
  request<Lecture>('POST', '/lectures', { body });

export const updateLecture = (id: string, body: { nameOfTopic: string; videoLink?: string | null }) =>
  request<Lecture>('PATCH', `/lectures/${id}/update`, { body });

export const deleteLecture = (id: string) => request<{ message: string }>('DELETE', `/lectures/${id}`);

export const uploadVideo = (file: File, onProgress: (percent: number) => void, signal?: AbortSignal) => {
  const form = new FormData();
  form.append('uploadedFile', file);
  return uploadWithProgress<{ masterPlaylist: string; videoId: string; video: VideoInfo }>(
    '/upload',
    form,
    onProgress,
    signal,
  );
};

export const retryVideo = (videoId: string) => request<VideoInfo>('POST', `/videos/${videoId}/retry`);

export const isProcessing = (lecture: Lecture) =>
  lecture.video !== null && (lecture.video.status === 'queued' || lecture.video.status === 'processing');

export type Comment = {
  _id: string;
  text: string;
  createdAt: string;
  userId: { _id: string; username: string; profilePictureImageLink: string };
};

export const addView = (id: string) =>
  request<{ noOfViews: number; counted: boolean }>('PATCH', `/lectures/${id}/view`);

export const likeLecture = (id: string) => request<{ noOfLikes: number }>('PATCH', `/lectures/${id}/like`);

export const unlikeLecture = (id: string) => request<{ noOfLikes: number }>('DELETE', `/lectures/${id}/like`);

export const listComments = (id: string) => request<Comment[]>('GET', `/lectures/${id}/comments`);

export const addComment = (id: string, text: string) =>
  request<Comment>('POST', `/lectures/${id}/comments`, { body: { text } });

export const deleteComment = (id: string, commentId: string) =>
  request<{ message: string }>('DELETE', `/lectures/${id}/comments/${commentId}`);

export const saveProgress = (id: string, position: number, duration: number) =>
  request<{ position: number; completed: boolean }>('PUT', `/lectures/${id}/progress`, {
    body: { position, duration },
  });

export type CourseProgress = {
  students: { _id: string; username: string; profilePictureImageLink: string }[];
  lectures: {
    _id: string;
    nameOfTopic: string;
    started: number;
    finished: number;
    enrolled: number;
    watchers: { studentId: string; watchedPercent: number; completed: boolean; updatedAt: string }[];
  }[];
};

export const getCourseProgress = (courseId: string) =>
  request<CourseProgress>('GET', `/lectures/course/${courseId}/progress`);

export type HistoryEntry = {
  lectureId: string;
  nameOfTopic: string;
  courseId: string;
  courseName: string;
  posterUrl: string | null;
  position: number;
  duration: number;
  watchedPercent: number;
  completed: boolean;
  watchedAt: string;
};

export const getHistory = () => request<HistoryEntry[]>('GET', '/history');
