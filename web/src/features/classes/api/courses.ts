import { answer, api, withoutBearer } from '@api/client';
import { accountKeys, courseKeys } from '@api/query-keys';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { CourseJson as Course, EnrollmentJson as Enrollment } from '@contract/courses';

export const listCourses = () => answer(api.courses.$get());
export const getCourse = (id: string) => answer(api.courses[':id'].$get({ param: { id } }));

export const coursesQuery = () => queryOptions({ queryKey: courseKeys.list(), queryFn: listCourses });
export const courseQuery = (id: string) =>
  queryOptions({ queryKey: courseKeys.detail(id), queryFn: () => getCourse(id) });

export const useCourses = () => useQuery(coursesQuery());
export const useCourse = (id: string) => useQuery(courseQuery(id));

export const rosterQuery = (courseId: string) =>
  queryOptions({
    queryKey: courseKeys.roster(courseId),
    queryFn: () => answer(api.courses[':id'].students.$get({ param: { id: courseId } })),
  });
export const useRoster = (courseId: string) => useQuery(rosterQuery(courseId));

/** Takes a student out of the class; the roster and the teacher's progress table follow. */
export function useRemoveStudent(courseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (studentId: string) =>
      answer(api.courses[':id'].students[':userId'].$delete({ param: { id: courseId, userId: studentId } })),
    onSuccess: () => client.invalidateQueries({ queryKey: courseKeys.detail(courseId) }),
  });
}

export function useCreateCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { courseName: string; teacherId: string; semester: number | null }) =>
      answer(api.courses.$post({ json: body })),
    // The modal shows the failure in its form.
    meta: { quiet: true },
    onSuccess: () => client.invalidateQueries({ queryKey: courseKeys.list() }),
  });
}

/** The spec's client sends the rename without a bearer header; the token cookie authenticates it. */
export function useRenameCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, courseName }: { id: string; courseName: string }) =>
      answer(api.courses[':id'].$patch({ param: { id }, json: { courseName } }, withoutBearer)),
    onSuccess: (course) => {
      client.setQueryData(courseKeys.detail(course._id), course);
      return client.invalidateQueries({ queryKey: courseKeys.list() });
    },
  });
}

export function useDeleteCourse() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => answer(api.courses[':id'].$delete({ param: { id } })),
    onSuccess: (_answer, id) => {
      client.removeQueries({ queryKey: courseKeys.detail(id) });
      return client.invalidateQueries({ queryKey: courseKeys.list() });
    },
  });
}

export function useRegenerateInviteCode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => answer(api.courses[':id']['invite-code'].$post({ param: { id } })),
    onSuccess: (course) => client.setQueryData(courseKeys.detail(course._id), course),
  });
}

/** Join modal: the spec's client sends this without a bearer header too. */
export function useEnroll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ studentId, classCode }: { studentId: string; classCode: string }) =>
      answer(api.enrollments.$post({ json: { studentId, classCode } }, withoutBearer)),
    meta: { quiet: true },
    onSuccess: () => client.invalidateQueries({ queryKey: courseKeys.list() }),
  });
}

/** An invite link's class and teacher, for the sign-in screens ("You're invited to Physics 101"); no sign-in needed. */
export const useInvitePreview = (code: string | null) =>
  useQuery({
    queryKey: accountKeys.invite(code),
    queryFn: () => answer(api.invites[':code'].$get({ param: { code: encodeURIComponent(code ?? '') } })),
    enabled: code !== null && code !== '',
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const joinByInviteCode = (inviteCode: string) => answer(api.enrollments.join.$post({ json: { inviteCode } }));
