import { answer, api } from '@api/client';
import { accountKeys } from '@api/query-keys';
import type { SignInMethodsJson } from '@contract/users';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** How the signed-in person can get into their account: a password, linked school accounts. */
export type SignInMethods = SignInMethodsJson;

export const signInMethodsQuery = () =>
  queryOptions({
    queryKey: accountKeys.signInMethods(),
    queryFn: () => answer(api.users['sign-in-methods'].$get()),
  });

export const useSignInMethods = () => useQuery(signInMethodsQuery());

/** Unlinks one school account; the server refuses (409 last_sign_in_method) when it is the last way in. */
export function useUnlinkSchool() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      answer(api.users['sign-in-methods'].school[':id'].$delete({ param: { id: encodeURIComponent(id) } })),
    meta: { quiet: true },
    onSettled: () => client.invalidateQueries({ queryKey: signInMethodsQuery().queryKey }),
  });
}

/** True when this school account is the only way into the account: unlinking it would lock the person out. */
export const isLastWayIn = (methods: SignInMethods) => !methods.password && methods.school.length <= 1;
