import { answer, api } from '@api/client';
import { courseKeys } from '@api/query-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** The person's private notes for a class (`/api/enrollments/{courseId}/notes`). */
export const getNotes = (courseId: string) => answer(api.enrollments[':courseId'].notes.$get({ param: { courseId } }));
export const notesQuery = (courseId: string) =>
  queryOptions({ queryKey: courseKeys.notes(courseId), queryFn: () => getNotes(courseId), staleTime: 0 });
export const useNotes = (courseId: string) => useQuery(notesQuery(courseId));

/** Saves notes as the page goes away (keepalive), when they fit in a keepalive body. */
export const saveNotesOnLeave = (courseId: string, notes: string) =>
  new Blob([notes]).size < 60_000
    ? answer(
        api.enrollments[':courseId'].notes.$patch(
          { param: { courseId }, json: { notes } },
          { init: { keepalive: true } },
        ),
      ).catch(() => {})
    : Promise.resolve();

export function useSaveNotes(courseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (notes: string) =>
      answer(api.enrollments[':courseId'].notes.$patch({ param: { courseId }, json: { notes } })),
    meta: { quiet: true },
    onSuccess: (saved) => client.setQueryData(courseKeys.notes(courseId), saved),
  });
}
