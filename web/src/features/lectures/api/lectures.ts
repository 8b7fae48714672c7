import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import type { CaptionJson, LectureJson } from '@contract/lectures';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { HistoryEntryJson as HistoryEntry } from '@contract/engagement';
export type { CaptionJson as Caption, LectureJson as Lecture } from '@contract/lectures';
export type { VideoJson as VideoInfo, VideoStatus } from '@contract/videos';

/** How often a class with a video in processing is asked for again. */
export const PROCESSING_POLL_MS = 2000;

export const isProcessing = (lecture: LectureJson) =>
  lecture.video !== null && (lecture.video.status === 'queued' || lecture.video.status === 'processing');

export const lecturesQuery = (courseId: string) =>
  queryOptions({
    queryKey: lectureKeys.ofCourse(courseId),
    queryFn: () => answer(api.lectures.course[':courseId'].$get({ param: { courseId } })),
    // While a video is processing, keep its progress fresh.
    refetchInterval: (query) => (query.state.data?.some(isProcessing) ? PROCESSING_POLL_MS : false),
  });
export const historyQuery = () =>
  queryOptions({ queryKey: lectureKeys.history(), queryFn: () => answer(api.history.$get()) });

export const useLectures = (courseId: string) => useQuery(lecturesQuery(courseId));
export const useHistory = () => useQuery(historyQuery());

/** Replaces one lecture in its class's cached list (after a like, a rename, a local view count). */
export function useUpdateCachedLecture() {
  const client = useQueryClient();
  return (lecture: LectureJson) =>
    client.setQueryData<LectureJson[]>(lectureKeys.ofCourse(lecture.courseId), (list) =>
      list?.map((item) => (item._id === lecture._id ? lecture : item)),
    );
}

/** A coverage report's answer: the student's own percent on the lecture in its class's cached list. */
export function useUpdateCachedCoverage() {
  const client = useQueryClient();
  return (lecture: LectureJson, coverage: { percent: number; completed: boolean }) =>
    client.setQueryData<LectureJson[]>(lectureKeys.ofCourse(lecture.courseId), (list) =>
      list?.map((item) =>
        item._id === lecture._id
          ? {
              ...item,
              myCoverage: {
                percent: coverage.percent,
                completed: coverage.completed,
                late:
                  item.myCoverage?.late ?? (coverage.completed && !!item.dueAt && Date.parse(item.dueAt) < Date.now()),
                // The report's answer does not carry it: the next fetch of the list does.
                reach: item.myCoverage?.reach ?? 0,
              },
            }
          : item,
      ),
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
      answer(api.lectures.$post({ json: body })),
    meta: { quiet: true },
    onSuccess: (lecture) => invalidate(lecture.courseId),
  });
}

export function useUpdateLecture() {
  const invalidate = useInvalidateCourseLectures();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      ...body
    }: {
      id: string;
      nameOfTopic: string;
      videoLink?: string | null;
      description?: string;
      /** "Watch by", an ISO time, or null to clear it. */
      dueAt?: string | null;
    }) => answer(api.lectures[':id'].update.$patch({ param: { id }, json: body })),
    meta: { quiet: true },
    onSuccess: (lecture) =>
      Promise.all([invalidate(lecture.courseId), client.invalidateQueries({ queryKey: lectureKeys.todo() })]),
  });
}

export function useDeleteLecture() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: (lecture: LectureJson) => answer(api.lectures[':id'].$delete({ param: { id: lecture._id } })),
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
      // A multipart form the route reads itself: sent as the request's body.
      return answer(api.lectures[':id'].captions.$post({ param: { id: lecture._id } }, { init: { body: form } }));
    },
    meta: { quiet: true },
    onSuccess: (_caption, { lecture }) => invalidate(lecture.courseId),
  });
}

export function useDeleteCaption() {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: ({ lecture, caption }: { lecture: LectureJson; caption: CaptionJson }) =>
      answer(api.lectures[':id'].captions[':captionId'].$delete({ param: { id: lecture._id, captionId: caption.id } })),
    onSuccess: (_answer, { lecture }) => invalidate(lecture.courseId),
  });
}

export function useRetryVideo(courseId: string) {
  const invalidate = useInvalidateCourseLectures();
  return useMutation({
    mutationFn: (videoId: string) => answer(api.videos[':id'].retry.$post({ param: { id: videoId } })),
    onSuccess: () => invalidate(courseId),
  });
}

export function useToggleLike() {
  const update = useUpdateCachedLecture();
  return useMutation({
    mutationFn: async (lecture: LectureJson) =>
      lecture.likedByMe
        ? answer(api.lectures[':id'].like.$delete({ param: { id: lecture._id } }))
        : answer(api.lectures[':id'].like.$patch({ param: { id: lecture._id } })),
    onSuccess: ({ noOfLikes, liked }, lecture) => update({ ...lecture, likedByMe: liked, noOfLikes }),
  });
}

/** Counted when a lecture ends; a failure only loses one view, so it stays quiet. */
export function useCountView() {
  return useMutation({
    mutationFn: (lectureId: string) => answer(api.lectures[':id'].view.$patch({ param: { id: lectureId } })),
    meta: { quiet: true },
  });
}

/** Sent every few seconds while playing: a failed save is simply sent again with the next position. */
export function useSaveProgress() {
  return useMutation({
    mutationFn: ({ id, position, duration }: { id: string; position: number; duration: number }) =>
      answer(api.lectures[':id'].progress.$put({ param: { id }, json: { position, duration } })),
    meta: { quiet: true },
  });
}
