import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { EmailChoiceJson } from '../../../../../src/contract/users';
import { answer, api } from '../../../api/client';
import { accountKeys } from '../../../api/query-keys';

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
