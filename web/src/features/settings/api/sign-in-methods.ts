import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client';

/** How the signed-in person can get into their account: a password, linked school accounts. */
export type SignInMethods = {
  password: boolean;
  school: { id: string; email: string | null; linkedAt: number }[];
  schoolLabel: string | null;
};

export const signInMethodsQuery = () =>
  queryOptions({
    queryKey: ['users', 'sign-in-methods'] as const,
    queryFn: () => request<SignInMethods>('GET', '/users/sign-in-methods'),
  });

export const useSignInMethods = () => useQuery(signInMethodsQuery());

/** Unlinks one school account; the server refuses (409 last_sign_in_method) when it is the last way in. */
export function useUnlinkSchool() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => request<void>('DELETE', `/users/sign-in-methods/school/${encodeURIComponent(id)}`),
    meta: { quiet: true },
    onSettled: () => client.invalidateQueries({ queryKey: signInMethodsQuery().queryKey }),
  });
}

/** True when this school account is the only way into the account: unlinking it would lock the person out. */
export const isLastWayIn = (methods: SignInMethods) => !methods.password && methods.school.length <= 1;
