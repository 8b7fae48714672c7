import { answer, api } from '@api/client';
import { adminKeys } from '@api/query-keys';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type {
  AdminCourseJson as AdminCourse,
  AdminUserJson as AdminUser,
  OverviewJson as Overview,
} from '@contract/admin';
export type { QueueEntryJson as QueueEntry } from '@contract/job-queue';

const QUEUE_POLL_MS = 5000;
/** The Admin badge is looked at again this often (and when the window gets focus): a cheap count. */
const WAITING_POLL_MS = 60_000;

export const adminUsersQuery = (q: string) =>
  queryOptions({
    queryKey: adminKeys.users(q),
    queryFn: () => answer(api.admin.users.$get({ query: { q } })),
    placeholderData: keepPreviousData,
  });
export const adminCoursesQuery = () =>
  queryOptions({ queryKey: adminKeys.courses(), queryFn: () => answer(api.admin.courses.$get()) });
export const overviewQuery = () =>
  queryOptions({
    queryKey: adminKeys.overview(),
    queryFn: () => answer(api.admin.overview.$get()),
    // The queue and a running backup move by themselves.
    refetchInterval: QUEUE_POLL_MS,
  });

/** How many teachers wait for approval: the badge on Admin in the menu and on the Users tab. */
export const waitingTeachersQuery = () =>
  queryOptions({
    queryKey: adminKeys.waitingTeachers(),
    queryFn: () => answer(api.admin['waiting-teachers'].$get()),
    refetchInterval: WAITING_POLL_MS,
  });

export const useAdminUsers = (q: string) => useQuery(adminUsersQuery(q));
export const useWaitingTeachers = () => useQuery(waitingTeachersQuery());
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
      answer(api.admin.users[':id'].$patch({ param: { id }, json: body })),
  );
export const useDeleteUser = () =>
  useAdminMutation((id: string) => answer(api.admin.users[':id'].$delete({ param: { id } })));
export const useSendReset = () =>
  useAdminMutation((id: string) => answer(api.admin.users[':id']['password-reset'].$post({ param: { id } })));
export const useDeleteClass = () =>
  useAdminMutation((id: string) => answer(api.admin.courses[':id'].$delete({ param: { id } })));
export const useRetryJob = () =>
  useAdminMutation((videoId: string) => answer(api.admin.videos[':id'].retry.$post({ param: { id: videoId } })));
export const useCancelJob = () =>
  useAdminMutation((videoId: string) => answer(api.admin.videos[':id'].cancel.$post({ param: { id: videoId } })));
export const useTestMail = () => useAdminMutation(() => answer(api.admin['test-mail'].$post()));
export const useStartBackup = () => useAdminMutation(() => answer(api.admin.backups.$post()));
