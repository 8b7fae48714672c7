import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { CommentJson as Comment } from '@contract/engagement';

export const commentsQuery = (lectureId: string) =>
  queryOptions({
    queryKey: lectureKeys.comments(lectureId),
    queryFn: () => answer(api.lectures[':id'].comments.$get({ param: { id: lectureId } })),
  });
export const useComments = (lectureId: string) => useQuery(commentsQuery(lectureId));

/** Whether the person may still open the class (a refused comment asks: lecture gone, or person removed?). */
export const getCourse = (courseId: string) => answer(api.courses[':id'].$get({ param: { id: courseId } }));

export function useAddComment(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    /** A text, or a reply: the text and the comment it answers (whose author is told). */
    mutationFn: (input: string | { text: string; parentId: string }) =>
      answer(
        api.lectures[':id'].comments.$post({
          param: { id: lectureId },
          json: typeof input === 'string' ? { text: input } : input,
        }),
      ),
    meta: { quiet: true },
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.comments(lectureId) }),
  });
}

export function useDeleteComment(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (commentId: string) =>
      answer(api.lectures[':id'].comments[':commentId'].$delete({ param: { id: lectureId, commentId } })),
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.comments(lectureId) }),
  });
}
