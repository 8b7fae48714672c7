import { Hono } from 'hono';
import { z } from 'zod';
import { readableCourse, readableLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { courseProgressJson, progressJson, toCourseProgressJson, toProgressJson } from '../contract/engagement';
import { courseProgress, saveProgress } from '../db/queries/engagement';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden } from '../errors';
import { answers } from '../http/openapi';
import { idParam, idSchema, validate } from '../http/validation';

const DAY_SECONDS = 24 * 60 * 60;
const progressBody = z.object({
  position: z.number({ error: 'fields.positionSeconds' }).min(0).max(DAY_SECONDS),
  duration: z.number({ error: 'fields.durationSeconds' }).positive().max(DAY_SECONDS),
});
const courseParam = z.object({ courseId: idSchema });

/**
 * Where each user got to; the teacher's table of who watched what. Mounted inside the lectures routes; every route
 * asks for a signed-in user itself.
 */
export function progressRoutes(deps: AppDeps) {
  const { db } = deps;
  const signedIn = requireUser(deps);
  return new Hono<AppEnv>()
    .put(
      '/:id/progress',
      answers({ 200: progressJson }),
      signedIn,
      validate('param', idParam),
      validate('json', progressBody),
      async (c) => {
        const user = c.get('user');
        const { lecture } = await readableLecture(db, user, c.req.valid('param').id);
        const { duration } = c.req.valid('json');
        const position = Math.min(c.req.valid('json').position, duration);
        return c.json(toProgressJson(await saveProgress(db, user.id, lecture.id, position, duration)));
      },
    )

    .get(
      '/course/:courseId/progress',
      answers({ 200: courseProgressJson }),
      signedIn,
      validate('param', courseParam),
      async (c) => {
        const { course, membership } = await readableCourse(db, c.get('user'), c.req.valid('param').courseId);
        if (membership !== 'teacher') throw forbidden('errors.onlyTeacherSeesProgress');
        const { students, lectures, progress } = await courseProgress(db, course.id);
        return c.json(toCourseProgressJson(students, lectures, progress));
      },
    );
}
