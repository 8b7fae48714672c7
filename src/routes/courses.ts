import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse, taughtCourse } from '../auth/access';
import { requireApprovedTeacher, requireUser } from '../auth/middleware';
import { courseJson, rosterEntryJson, toCourseJson, toRosterEntryJson } from '../contract/courses';
import { LIMITS } from '../contract/limits';
import { removedJson } from '../contract/users';
import {
  coursesOf,
  createCourse,
  deleteCourse,
  removeStudent,
  replaceInviteCode,
  rosterOf,
  teacherRef,
  updateCourse,
} from '../db/queries/courses';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden, notFound } from '../errors';
import { answers } from '../http/openapi';
import { plainText } from '../http/text-fields';
import { idParam, idSchema, validate } from '../http/validation';
import { deleteUnreferencedVideos } from '../media/videos';

const courseName = plainText({
  required: 'Class name is required.',
  tooShort: 'Class name is required.',
  tooLong: `Class name must be at most ${LIMITS.courseNameMax} characters.`,
  min: 1,
  max: LIMITS.courseNameMax,
  hidden: 'The class name contains hidden characters. Please type it again.',
});
const semesterRange = `Semester must be from ${LIMITS.semesterMin} to ${LIMITS.semesterMax}.`;
// A number, or digits in a string (an HTML form sends text); never a list or true, which coercion would accept.
const semester = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}(\.\d+)?$/)
        .transform(Number),
    ],
    { error: 'Semester must be a number.' },
  )
  .pipe(
    z
      .number()
      .int('Semester must be a whole number.')
      .min(LIMITS.semesterMin, semesterRange)
      .max(LIMITS.semesterMax, semesterRange),
  );
const optionalSemester = z.preprocess((value) => (value === '' ? null : value), semester.nullish());

const createBody = z.object({ courseName, teacherId: idSchema.optional(), semester: optionalSemester });
// A name is needed unless the change is only the downloads switch (docs/offline.md).
const updateBody = z
  .object({
    courseName: courseName.optional(),
    semester: optionalSemester,
    downloadsAllowed: z.boolean({ error: 'downloadsAllowed must be true or false.' }).optional(),
  })
  .superRefine((body, context) => {
    if (body.courseName === undefined && body.downloadsAllowed === undefined) {
      context.addIssue({ code: 'custom', path: ['courseName'], message: 'Class name is required.' });
    }
  });
const studentParam = z.object({ id: idSchema, userId: idSchema });

export function coursesRoutes(deps: AppDeps) {
  const { db } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))

    .get('/', answers({ 200: z.array(courseJson) }), async (c) => {
      const rows = await coursesOf(db, c.get('user'));
      return c.json(
        rows.map(({ course, username, hasNew }) => ({
          ...toCourseJson(course, { _id: course.teacherId, username }),
          hasNew,
        })),
      );
    })

    .post('/', answers({ 201: courseJson }), requireApprovedTeacher, validate('json', createBody), async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      if (body.teacherId && body.teacherId !== user.id) throw forbidden('You can only create classes for yourself.');
      const course = await createCourse(db, {
        courseName: body.courseName,
        teacherId: user.id,
        semester: body.semester ?? null,
      });
      return c.json(toCourseJson(course, user.id), 201);
    })

    .get('/:id', answers({ 200: courseJson }), validate('param', idParam), async (c) => {
      const { course } = await readableCourse(db, c.get('user'), c.req.valid('param').id);
      return c.json(toCourseJson(course, await teacherRef(db, course.teacherId)));
    })

    .patch(
      '/:id',
      answers({ 200: courseJson }),
      validate('param', idParam),
      validate('json', updateBody),
      async (c) => {
        const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
        const body = c.req.valid('json');
        const updated = await updateCourse(db, course.id, {
          ...(body.courseName !== undefined ? { courseName: body.courseName } : {}),
          ...(body.semester !== undefined ? { semester: body.semester } : {}),
          ...(body.downloadsAllowed !== undefined ? { downloadsAllowed: body.downloadsAllowed } : {}),
        });
        return c.json(toCourseJson(updated, await teacherRef(db, updated.teacherId)));
      },
    )

    .delete('/:id', answers({ 200: removedJson }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      const videoIds = await deleteCourse(db, course.id);
      // Then, with the delete committed, the videos and their files.
      await deleteUnreferencedVideos(deps, videoIds);
      return c.json({ message: 'Class deleted', _id: course.id });
    })

    .get('/:id/students', answers({ 200: z.array(rosterEntryJson) }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      return c.json((await rosterOf(db, course.id)).map(({ user, joinedAt }) => toRosterEntryJson(user, joinedAt)));
    })

    .delete('/:id/students/:userId', answers({ 200: removedJson }), validate('param', studentParam), async (c) => {
      const { id, userId } = c.req.valid('param');
      const course = await taughtCourse(db, c.get('user'), id);
      if (!(await removeStudent(db, course.id, userId))) {
        throw notFound('student_not_found', 'This student is not in the class.');
      }
      return c.json({ message: 'Student removed', _id: userId });
    })

    .post('/:id/invite-code', answers({ 200: courseJson }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      const updated = await replaceInviteCode(db, course.id);
      return c.json(toCourseJson(updated, await teacherRef(db, updated.teacherId)));
    });
}
