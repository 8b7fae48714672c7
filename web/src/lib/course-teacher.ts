import type { CourseJson } from '@contract/courses';

// The contract's modules hold zod schemas: the web imports their types only, so zod stays out of its bundle.
/** The teacher's name as a class's JSON carries it (an id alone when the server did not join the teacher). */
export const teacherName = (course: Pick<CourseJson, 'teacherId'>) =>
  typeof course.teacherId === 'string' ? '' : course.teacherId.username;
/** The id of a class's teacher, whether the JSON carries the teacher or only the id. */
export const teacherIdOf = (course: Pick<CourseJson, 'teacherId'>) =>
  typeof course.teacherId === 'string' ? course.teacherId : course.teacherId._id;
