import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommentJson,
  CourseProgressJson,
  HistoryEntryJson,
  LikesJson,
  ProgressJson,
  ViewsJson,
} from '../../../../../src/contract/engagement';
import type { CaptionJson, LectureJson } from '../../../../../src/contract/lectures';
import type { VideoJson } from '../../../../../src/contract/videos';
import { request } from '../../../api/client';
import { courseKeys } from '../../classes/api/courses';

export type {
  CommentJson as Comment,
  CourseProgressJson as CourseProgress,
  HistoryEntryJson as HistoryEntry,
} from '../../../../../src/contract/engagement';
export type { CaptionJson as Caption, LectureJson as Lecture } from '../../../../../src/contract/lectures';
export type { VideoJson as VideoInfo, VideoStatus } from '../../../../../src/contract/videos';

/** How often a class with a video in processing is asked for again. */
export const PROCESSING_POLL_MS = 2000;

export const lectureKeys = {
  ofCourse: (courseId: string) => [...courseKeys.detail(courseId), 'lectures'] as const,
  progressOfCourse: (courseId: string) => [...courseKeys.detail(courseId), 'progress'] as const,
  comments: (lectureId: string) => ['lectures', lectureId, 'comments'] as const,
  history: () => ['history'] as const,
};

export const isProcessing = (lecture: LectureJson) =>
  lecture.video !== null && (lecture.video.status === 'queued' || lecture.video.status === 'processing');

export const lecturesQuery = (courseId: string) =>
  queryOptions({
    queryKey: lectureKeys.ofCourse(courseId),
    queryFn: () => request<LectureJson[]>('GET', `/lectures/course/${courseId}`),
    // While a video is processing, keep its progress fresh.
    refetchInterval: (query) => (query.state.data?.some(isProcessing) ? PROCESSING_POLL_MS : false),
  });
export const commentsQuery = (lectureId: string) =>
  queryOptions({
    queryKey: lectureKeys.comments(lectureId),
    queryFn: () => request<CommentJson[]>('GET', `/lectures/${lectureId}/comments`),
  });
export const courseProgressQuery = (courseId: string) =>
  queryOptions({
    queryKey: lectureKeys.progressOfCourse(courseId),
    queryFn: () => request<CourseProgressJson>('GET', `/lectures/course/${courseId}/progress`),
  });
export const historyQuery = () =>
  queryOptions({ queryKey: lectureKeys.history(), queryFn: () => request<HistoryEntryJson[]>('GET', '/history') });

export const useLectures = (courseId: string) => useQuery(lecturesQuery(courseId));
export const useComments = (lectureId: string) => useQuery(commentsQuery(lectureId));
export const useCourseProgress = (courseId: string) => useQuery(courseProgressQuery(courseId));
export const useHistory = () => useQuery(historyQuery());

/** Replaces one lecture in its class's cached list (after a like, a rename, a local view count). */
export function useUpdateCachedLecture() {
  const client = useQueryClient();
  return (lecture: LectureJson) =>
    client.setQueryData<LectureJson[]>(lectureKeys.ofCourse(lecture.courseId), (list) =>
      list?.map((item) => (item._id === lecture._id ? lecture : item)),
    );
}

/** After a lecture changes: its class's list and the teacher's progress table. */
function useInvalidateCourseLectures() {
  const client = useQueryClient();
  return (courseId: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: lectureKeys.ofCourse(courseId) }),
      client.invalidateQueries({ queryKey: lectureKeys.progressOfCourse(courseId) }),
    ]);
}

export function useCreateLecture() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: (body: { courseId: string; nameOfTopic: string; videoLink: string | null }) =>
      request<LectureJson>('POST', '/lectures', { body }),
    meta: { quiet: true },
    onSuccess: (lecture) => invalidate(lecture.courseId),
  });
}

export function useUpdateLecture() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; nameOfTopic: string; videoLink?: string | null }) =>
      request<LectureJson>('PATCH', `/lectures/${id}/update`, { body }),
    meta: { quiet: true },
    onSuccess: (lecture) => invalidate(lecture.courseId),
  });
}

export function useDeleteLecture() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: (lecture: LectureJson) => request<{ message: string }>('DELETE', `/lectures/${lecture._id}`),
    onSuccess: (_answer, lecture) => invalidate(lecture.courseId),
  });
}

/** Adds a lecture's captions in a language (WebVTT or SRT), or replaces those it has in that language. */
export function useAddCaption() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: ({
      lecture,
      file,
      language,
      label,
    }: {
      lecture: LectureJson;
      file: File;
      language: string;
      label: string;
    }) => {
      const form = new FormData();
      form.append('file', file);
      form.append('language', language);
      form.append('label', label);
      return request<CaptionJson>('POST', `/lectures/${lecture._id}/captions`, { body: form });
    },
    meta: { quiet: true },
    onSuccess: (_caption, { lecture }) => invalidate(lecture.courseId),
  });
}

export function useDeleteCaption() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: ({ lecture, caption }: { lecture: LectureJson; caption: CaptionJson }) =>
      request<{ message: string }>('DELETE', `/lectures/${lecture._id}/captions/${caption.id}`),
    onSuccess: (_answer, { lecture }) => invalidate(lecture.courseId),
  });
}

export function useRetryVideo(courseId: string) {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: (videoId: string) => request<VideoJson>('POST', `/videos/${videoId}/retry`),
    onSuccess: () => invalidate(courseId),
  });
}

export function useToggleLike() {
  const update = useUpdateCachedLecture();
  return useMutation({
    mutationFn: async (lecture: LectureJson) =>
      lecture.likedByMe
        ? request<LikesJson>('DELETE', `/lectures/${lecture._id}/like`)
        : request<LikesJson>('PATCH', `/lectures/${lecture._id}/like`),
    onSuccess: ({ noOfLikes, liked }, lecture) => update({ ...lecture, likedByMe: liked, noOfLikes }),
  });
}

/** Counted when a lecture ends; a failure only loses one view, so it stays quiet. */
export function useCountView() {
  return useMutation({
    mutationFn: (lectureId: string) => request<ViewsJson>('PATCH', `/lectures/${lectureId}/view`),
    meta: { quiet: true },
  });
}

/** Sent every few seconds while playing: a failed save is simply sent again with the next position. */
export function useSaveProgress() {
  return useMutation({
    mutationFn: ({ id, position, duration }: { id: string; position: number; duration: number }) =>
      request<ProgressJson>('PUT', `/lectures/${id}/progress`, { body: { position, duration } }),
    meta: { quiet: true },
  });
}

export function useAddComment(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    /** A text, or a reply: the text and the comment it answers (whose author is told). */
    mutationFn: (input: string | { text: string; parentId: string }) =>
      request<CommentJson>('POST', `/lectures/${lectureId}/comments`, {
        body: typeof input === 'string' ? { text: input } : input,
      }),
    meta: { quiet: true },
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.comments(lectureId) }),
  });
}

export function useDeleteComment(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) =>
      request<{ message: string }>('DELETE', `/lectures/${lectureId}/comments/${commentId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.comments(lectureId) }),
  });
}
