import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import type { Chapter, ChapterSource } from '@contract/chapters';
import type { LectureJson } from '@contract/lectures';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { Chapter, ChapterSource } from '@contract/chapters';

/** `GET/PUT /api/lectures/{id}/chapters`: the chapters the player shows, where they come from, the editor's list. */
export type ChaptersJson = { chapters: Chapter[]; source: ChapterSource; editor: Chapter[] | null };

export const chaptersQuery = (lectureId: string) =>
  queryOptions({
    queryKey: lectureKeys.chapters(lectureId),
    queryFn: (): Promise<ChaptersJson> => answer(api.lectures[':id'].chapters.$get({ param: { id: lectureId } })),
  });

/** The chapter editor's view of a lecture (students read `lecture.chapters` from the class's list instead). */
export const useChapters = (lectureId: string) => useQuery(chaptersQuery(lectureId));

/** Saves the editor's list (null goes back to the description's timed lines); the class's list shows it after. */
export function useSaveChapters(lecture: Pick<LectureJson, '_id' | 'courseId'>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (chapters: Chapter[] | null): Promise<ChaptersJson> =>
      answer(api.lectures[':id'].chapters.$put({ param: { id: lecture._id }, json: { chapters } })),
    // The editor shows the refusal beside the rows it is about.
    meta: { quiet: true },
    onSuccess: (saved) => {
      client.setQueryData(lectureKeys.chapters(lecture._id), saved);
      return client.invalidateQueries({ queryKey: lectureKeys.ofCourse(lecture.courseId) });
    },
  });
}

export { parseTime } from '@lib/format';
