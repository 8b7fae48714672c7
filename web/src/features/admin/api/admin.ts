import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminCourseJson, AdminUserJson, OverviewJson } from '../../../../../src/contract/admin';
import { request } from '../../../api/client';

export type {
  AdminCourseJson as AdminCourse,
  AdminUserJson as AdminUser,
  OverviewJson as Overview,
  QueueEntryJson as QueueEntry,
} from '../../../../../src/contract/admin';

export const adminKeys = {
  all: ['admin'] as const,
  users: (q: string) => [...adminKeys.all, 'users', q] as const,
  courses: () => [...adminKeys.all, 'courses'] as const,
  overview: () => [...adminKeys.all, 'overview'] as const,
};

const QUEUE_POLL_MS = 5000;

export const adminUsersQuery = (q: string) =>
  queryOptions({
    queryKey: adminKeys.users(q),
    queryFn: () => request<AdminUserJson[]>('GET', `/admin/users?q=${encodeURIComponent(q)}`),
    placeholderData: keepPreviousData,
  });
export const adminCoursesQuery = () =>
  queryOptions({ queryKey: adminKeys.courses(), queryFn: () => request<AdminCourseJson[]>('GET', '/admin/courses') });
export const overviewQuery = () =>
  queryOptions({
    queryKey: adminKeys.overview(),
    queryFn: () => request<OverviewJson>('GET', '/admin/overview'),
    // The queue and a running backup move by themselves.
    refetchInterval: QUEUE_POLL_MS,
  });

export const useAdminUsers = (q: string) => useQuery(adminUsersQuery(q));
export const useAdminCourses = () => useQuery(adminCoursesQuery());
export const useOverview = () => useQuery(overviewQuery());

/** Every admin action refreshes the whole console (lists are small). */
function useAdminMutation<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.all }) });
}

export const useUpdateUser = () =>
  useAdminMutation(
    ({ id, ...body }: { id: string; teacherApproved?: boolean; disabled?: boolean; isAdmin?: boolean }) =>
      request<AdminUserJson>('PATCH', `/admin/users/${id}`, { body }),
  );
export const useDeleteUser = () =>
  useAdminMutation((id: string) => request<{ message: string }>('DELETE', `/admin/users/${id}`));
export const useSendReset = () =>
  useAdminMutation((id: string) => request<{ message: string }>('POST', `/admin/users/${id}/password-reset`));
export const useDeleteClass = () =>
  useAdminMutation((id: string) => request<{ message: string }>('DELETE', `/admin/courses/${id}`));
export const useRetryJob = () =>
  useAdminMutation((videoId: string) => request<{ message: string }>('POST', `/admin/videos/${videoId}/retry`));
export const useCancelJob = () =>
  useAdminMutation((videoId: string) => request<{ message: string }>('POST', `/admin/videos/${videoId}/cancel`));
export const useTestMail = () => useAdminMutation(() => request<{ message: string }>('POST', '/admin/test-mail'));
export const useStartBackup = () => useAdminMutation(() => request<{ message: string }>('POST', '/admin/backups'));
