import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import type { UploadJson } from '@contract/videos';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { trimToSend } from '../state/trim';

/**
 * Save: waits for the upload's last byte, sends the trim when the teacher cut the ends (the server re-transcodes
 * from start to end), then makes the topic with the spec's own `POST /api/lectures`, linking the uploaded video.
 */
export function useSaveRecording() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      uploaded: Promise<UploadJson>;
      /** The recorder's own clock, for when the server has not said the length yet. */
      recordedSeconds: number;
      courseId: string;
      nameOfTopic: string;
      /** `end` null: to the end, however long the server found it. */
      trim: { start: number; end: number | null };
    }) => {
      const { videoId, masterPlaylist, video } = await input.uploaded;
      const duration = video?.durationSeconds || input.recordedSeconds;
      const trim = trimToSend({ start: input.trim.start, end: input.trim.end ?? duration }, duration);
      if (trim) await answer(api.videos[':id'].trim.$patch({ param: { id: videoId }, json: trim }));
      return answer(
        api.lectures.$post({
          json: { courseId: input.courseId, nameOfTopic: input.nameOfTopic, videoLink: masterPlaylist },
        }),
      );
    },
    onSuccess: (lecture) =>
      Promise.all([
        client.invalidateQueries({ queryKey: lectureKeys.ofCourse(lecture.courseId) }),
        client.invalidateQueries({ queryKey: lectureKeys.progressOfCourse(lecture.courseId) }),
      ]),
  });
}

/** Discard after the upload finished: the server deletes the video no lecture uses (its files and jobs). */
export const deleteRecordedVideo = (videoId: string) => answer(api.videos[':id'].$delete({ param: { id: videoId } }));
