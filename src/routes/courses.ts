import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse, taughtCourse } from '../auth/access';
import { requireApprovedTeacher, requireUser } from '../auth/middleware';
import {
  courseJson,
  createCourseBody,
  rosterEntryJson,
  toCourseJson,
  toRosterEntryJson,
  updateCourseBody,
} from '../contract/courses';
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
import { idParam, idSchema, validate } from '../http/validation';
import { deleteUnreferencedVideos } from '../media/videos';

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

    .post('/', answers({ 201: courseJson }), requireApprovedTeacher, validate('json', createCourseBody), async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      if (body.teacherId && body.teacherId !== user.id) throw forbidden('errors.classesOnlyForYourself');
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
      validate('json', updateCourseBody),
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
        throw notFound('student_not_found', 'errors.studentNotInClass');
      }
      return c.json({ message: 'Student removed', _id: userId });
    })

    .post('/:id/invite-code', answers({ 200: courseJson }), validate('param', idParam), async (c) => {
      const course = await taughtCourse(db, c.get('user'), c.req.valid('param').id);
      const updated = await replaceInviteCode(db, course.id);
      return c.json(toCourseJson(updated, await teacherRef(db, updated.teacherId)));
    });
}
