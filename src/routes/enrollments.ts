import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { readableCourse } from '../auth/access';
import { type AccountLimits, refuseWhileLimited } from '../auth/limits';
import { requireUser } from '../auth/middleware';
import {
  enrollBody,
  enrollmentJson,
  inviteCodeParam,
  invitePreviewJson,
  joinBody,
  notesBody,
  notesJson,
  notesSavedJson,
  toCourseJson,
  toEnrollmentJson,
  toNotesJson,
} from '../contract/courses';
import { courseByInviteCode, enroll, notesOf, saveNotes, teacherRef } from '../db/queries/courses';
import type { User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden, notFound } from '../errors';
import { clientAddress } from '../http/client-address';
import { answers } from '../http/openapi';
import { idSchema, validate } from '../http/validation';

const courseParam = z.object({ courseId: idSchema });

/**
 * What an invite link shows before anyone signs in: the class's name and its teacher's, so the sign-in and sign-up
 * screens can say "You're invited to Physics 101". Nothing else about the class; unknown codes count against the
 * network's wrong-code limit, as joining does.
 */
export function invitesRoutes(deps: AppDeps & { limits: AccountLimits }) {
  const { db, config, limits } = deps;
  return new Hono<AppEnv>().get(
    '/:code',
    answers({ 200: invitePreviewJson }),
    validate('param', inviteCodeParam),
    async (c) => {
      const address = clientAddress(c, config.trustProxy);
      await refuseWhileLimited(limits.perClient.failedJoins, address, 'wrongClassCodes');
      const course = await courseByInviteCode(db, c.req.valid('param').code);
      if (!course) {
        await limits.perClient.failedJoins.hit(address);
        throw notFound('class_code_not_found', 'errors.inviteLinkDead');
      }
      const teacher = await teacherRef(db, course.teacherId);
      return c.json({ courseName: course.courseName, teacherName: teacher.username || null });
    },
  );
}

export function enrollmentsRoutes(deps: AppDeps & { limits: AccountLimits }) {
  const { db, config, limits } = deps;

  /** Enrolls the student in the class with this code; joining twice answers the same enrollment. */
  async function join(c: Context, user: User, code: string) {
    // Wrong codes are counted per network address, so nobody can walk through the codes of every class.
    const address = clientAddress(c, config.trustProxy);
    await refuseWhileLimited(limits.perClient.failedJoins, address, 'wrongClassCodes');
    const course = await courseByInviteCode(db, code);
    if (!course) {
      await limits.perClient.failedJoins.hit(address);
      throw notFound('class_code_not_found', 'errors.classCodeNotFound');
    }
    const courseJson = toCourseJson(course, await teacherRef(db, course.teacherId));
    if (course.teacherId === user.id) {
      // The teacher scanning their own code lands in their class rather than on an error.
      return { created: false, body: toEnrollmentJson(courseJson) };
    }
    if (user.role !== 'student') throw forbidden('errors.onlyStudentsJoin');
    const { enrollment, created } = await enroll(db, course.id, user.id);
    return { created, body: toEnrollmentJson(courseJson, enrollment) };
  }

  return new Hono<AppEnv>()
    .use(requireUser(deps))

    .post('/', answers({ 200: enrollmentJson, 201: enrollmentJson }), validate('json', enrollBody), async (c) => {
      const user = c.get('user');
      const body = c.req.valid('json');
      if (body.studentId !== user.id) throw forbidden('errors.enrollOnlyYourself');
      const result = await join(c, user, body.classCode);
      return c.json(result.body, result.created ? 201 : 200);
    })

    .post('/join', answers({ 200: enrollmentJson, 201: enrollmentJson }), validate('json', joinBody), async (c) => {
      const result = await join(c, c.get('user'), c.req.valid('json').inviteCode);
      return c.json(result.body, result.created ? 201 : 200);
    })

    .get('/:courseId/notes', answers({ 200: notesJson }), validate('param', courseParam), async (c) => {
      const user = c.get('user');
      const { course } = await readableCourse(db, user, c.req.valid('param').courseId);
      return c.json(toNotesJson(await notesOf(db, course.id, user.id)));
    })

    .patch(
      '/:courseId/notes',
      answers({ 200: notesSavedJson }),
      validate('param', courseParam),
      validate('json', notesBody),
      async (c) => {
        const user = c.get('user');
        const { course } = await readableCourse(db, user, c.req.valid('param').courseId);
        const row = await saveNotes(db, course.id, user.id, c.req.valid('json').notes);
        return c.json({ ...toNotesJson(row), message: 'Note saved successfully' });
      },
    );
}
