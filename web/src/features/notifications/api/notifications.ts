import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { EmailChoiceJson } from '../../../../../src/contract/users';
import { answer, api } from '../../../api/client';
import { accountKeys, courseKeys } from '../../../api/query-keys';

/** Which notification emails a person gets: every event, a daily digest, or none. */
export type NotificationPrefs = EmailChoiceJson;
export type EmailChoice = NotificationPrefs['email'];

export const notificationPrefsQuery = () =>
  queryOptions({
    queryKey: accountKeys.notificationPrefs(),
    queryFn: () => answer(api.users.notifications.$get()),
  });

export const useNotificationPrefs = () => useQuery(notificationPrefsQuery());

export function useSaveNotificationPrefs() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (prefs: NotificationPrefs) => answer(api.users.notifications.$put({ json: prefs })),
    meta: { quiet: true },
    onSuccess: (saved) => client.setQueryData(notificationPrefsQuery().queryKey, saved),
  });
}

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
