import { answer, api } from '@api/client';
import { accountKeys } from '@api/query-keys';
import type { EmailChoiceJson } from '@contract/users';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

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
