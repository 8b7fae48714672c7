import { answer, api } from '@api/client';
import { courseKeys } from '@api/query-keys';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/**
 * Records that the class was opened (what came before is no longer new) and refreshes the class list, so its
 * unread dot is gone on the way back. Give the id as soon as the class has loaded: a pupil who looks and goes back
 * at once has seen it too. A failure is quiet: the dot just stays.
 */
export function useRecordVisit(courseId: string | undefined) {
  const client = useQueryClient();
  useEffect(() => {
    if (!courseId) return;
    answer(api.notifications.visits[':id'].$post({ param: { id: encodeURIComponent(courseId) } })).then(
      () => client.invalidateQueries({ queryKey: courseKeys.list() }),
      () => {},
    );
  }, [courseId, client]);
}
