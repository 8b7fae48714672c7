import { request } from './client';

export type Course = {
  _id: string;
  id: string;
  courseName: string;
  semester: number | null;
  inviteCode: string;
  classCode: string;
  teacherId: { _id: string; username: string } | string;
  createdAt: string;
};

export type Enrollment = { _id?: string; courseId: string; classCode: string; course: Course };

export const listCourses = () => request<Course[]>('GET', '/courses');

export const createCourse = (body: { courseName: string; teacherId: string; semester: number | null }) =>
  request<Course>('POST', '/courses', { body });

export const getCourse = (id: string) => request<Course>('GET', `/courses/${id}`);

/** The spec's client sends this without a bearer header; the token cookie authenticates it. */
export const renameCourse = (id: string, courseName: string) =>
  request<Course>('PATCH', `/courses/${id}`, { body: { courseName }, noAuthHeader: true });

export const deleteCourse = (id: string) => request<{ message: string }>('DELETE', `/courses/${id}`);

export const regenerateInviteCode = (id: string) => request<Course>('POST', `/courses/${id}/invite-code`);

/** Join modal: the spec's client sends this without a bearer header too. */
export const enrollByClassCode = (studentId: string, classCode: string) =>
  request<Enrollment>('POST', '/enrollments', { body: { studentId, classCode }, noAuthHeader: true });

export const joinByInviteCode = (inviteCode: string) =>
  request<Enrollment>('POST', '/enrollments/join', { body: { inviteCode } });

export const getNotes = (courseId: string) => request<{ notes: string }>('GET', `/enrollments/${courseId}/notes`);

export const saveNotes = (courseId: string, notes: string) =>
  request<{ notes: string }>('PATCH', `/enrollments/${courseId}/notes`, { body: { notes } });

export const teacherName = (course: Course) => (typeof course.teacherId === 'string' ? '' : course.teacherId.username);
