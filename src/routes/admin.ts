import { statfsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { issueCode } from '../auth/email-codes';
import { requireAdmin, requireUser } from '../auth/middleware';
import { endSessions } from '../auth/sessions';
import { listSnapshots } from '../backup/snapshots';
import {
  adminCourseJson,
  adminUserJson,
  type OverviewJson,
  overviewJson,
  toAdminCourseJson,
  toAdminUserJson,
  toSnapshotJson,
} from '../contract/admin';
import { toQueueEntryJson } from '../contract/job-queue';
import { withoutControl } from '../contract/text';
import { messageJson, removedJson } from '../contract/users';
import {
  allCourses,
  countWaitingTeachers,
  decideTeacher,
  deleteAccount,
  searchUsers,
  setStanding,
  userById,
} from '../db/queries/admin';
import { deleteCourse } from '../db/queries/courses';
import { jobQueue } from '../db/queries/job-queue';
import { courses } from '../db/schema';
import { transaction } from '../db/transaction';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';
import { localeOfAccount, localeOfRequest, type MessageKey, translate } from '../i18n/translate';
import { VERSION } from '../lib/version';
import { passwordResetMail, testMail } from '../mail/templates';
import { retryFailed } from '../media/state';
import { deleteUnreferencedVideos, removeVideoFiles } from '../media/videos';
import { AVATARS_PREFIX, avatarKey, UPLOADS_PREFIX, VIDEOS_PREFIX } from '../storage/keys';
import { prefixBytes } from '../storage/storage';

/** The Admin badge: how many teachers wait for approval (a cheap count the menu polls). */
const waitingTeachersJson = z.object({ count: z.number().int().min(0) });
const listQuery = z.object({
  q: withoutControl(z.string(), 'fields.searchHidden').trim().max(100).default(''),
});
const patchBody = z
  .object({
    teacherApproved: z.boolean().optional(),
    disabled: z.boolean().optional(),
    isAdmin: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'fields.sayWhatToChange');

/** The administrator's console: users, classes, the server, backups. Admins only. */
export function adminRoutes(deps: AppDeps) {
  const { db, config, mailer, storage, jobs } = deps;
  const target = async (id: string) => {
    const user = await userById(db, id);
    if (!user) throw notFound('user_not_found', 'errors.userNotFound');
    return user;
  };
  const notYourself = (caller: string, id: string, message: MessageKey) => {
    if (caller === id) throw badRequest('not_yourself', message);
  };

  return new Hono<AppEnv>()
    .use(requireUser(deps), requireAdmin)

    .get('/waiting-teachers', answers({ 200: waitingTeachersJson }), async (c) => {
      return c.json({ count: await countWaitingTeachers(db) });
    })

    .get('/users', answers({ 200: z.array(adminUserJson) }), validate('query', listQuery), async (c) => {
      return c.json(
        (await searchUsers(db, c.req.valid('query').q)).map((row) => toAdminUserJson(row.user, row.classes)),
      );
    })

    .patch(
      '/users/:id',
      answers({ 200: adminUserJson }),
      validate('param', idParam),
      validate('json', patchBody),
      async (c) => {
        const caller = c.get('user');
        const user = await target(c.req.valid('param').id);
        const body = c.req.valid('json');
        if (body.disabled !== undefined || body.isAdmin === false)
          notYourself(caller.id, user.id, 'errors.cannotDisableYourself');
        if (body.teacherApproved !== undefined && user.role !== 'teacher') {
          throw badRequest('not_a_teacher', 'errors.onlyTeacherApproved');
        }
        let told = false;
        const updated = await transaction(db, async (tx) => {
          if (body.teacherApproved !== undefined) {
            const status = body.teacherApproved ? 'approved' : 'declined';
            // The teacher hears of a real change only (a second Approve tells nobody again).
            told = await decideTeacher(tx, user.id, status);
          }
          return setStanding(tx, user.id, {
            ...(body.disabled !== undefined ? { disabledAt: body.disabled ? Date.now() : null } : {}),
            ...(body.isAdmin !== undefined ? { isAdmin: body.isAdmin } : {}),
          });
        });
        if (told) jobs.wake();
        if (body.disabled) await endSessions(db, user.id);
        c.get('log').info(
          { event: 'admin_changed_user', by: caller.id, userId: user.id, change: body },
          'account changed',
        );
        return c.json(toAdminUserJson(updated, 0));
      },
    )

    .delete('/users/:id', answers({ 200: removedJson }), validate('param', idParam), async (c) => {
      const caller = c.get('user');
      const user = await target(c.req.valid('param').id);
      notYourself(caller.id, user.id, 'errors.cannotDeleteYourself');
      const videoIds = await deleteAccount(db, user.id);
      for (const id of videoIds) await removeVideoFiles(deps, id);
      await storage.delete(avatarKey(user.id));
      c.get('log').info({ event: 'admin_deleted_user', by: caller.id, userId: user.id }, 'account deleted');
      return c.json({ message: 'Account deleted', _id: user.id });
    })

    .post('/users/:id/password-reset', answers({ 200: messageJson }), validate('param', idParam), async (c) => {
      const user = await target(c.req.valid('param').id);
      const code = await issueCode(db, user.id);
      await mailer.send(passwordResetMail(localeOfAccount(user, config), user.email, user.username, code)).catch(() => {
        throw new ApiError(503, 'mail_failed', 'errors.mailFailed');
      });
      c.get('log').info({ event: 'admin_sent_reset', by: c.get('user').id, userId: user.id }, 'reset code sent');
      // Shown to the administrator as it is (a toast): in their language.
      return c.json({ message: translate(localeOfRequest(c), 'admin.answer.resetSent', { email: user.email }) });
    })

    .get('/courses', answers({ 200: z.array(adminCourseJson) }), async (c) => {
      const { rows, videoRows } = await allCourses(db);
      // Sizes from storage (the local disk or S3), in one listing of every video's files.
      const bytesOfVideo = new Map<string, number>();
      for (const file of await storage.listFiles(VIDEOS_PREFIX)) {
        const videoId = file.key.split('/')[1];
        bytesOfVideo.set(videoId, (bytesOfVideo.get(videoId) ?? 0) + file.size);
      }
      const bytesOfCourse = new Map<string, number>();
      for (const row of videoRows) {
        const bytes = bytesOfVideo.get(row.videoId as string) ?? 0;
        bytesOfCourse.set(row.courseId, (bytesOfCourse.get(row.courseId) ?? 0) + bytes);
      }
      return c.json(
        rows.map((row) =>
          toAdminCourseJson(row.course, row.teacher, {
            students: row.students,
            lectures: row.lectures,
            storageBytes: bytesOfCourse.get(row.course.id) ?? 0,
          }),
        ),
      );
    })

    .delete('/courses/:id', answers({ 200: removedJson }), validate('param', idParam), async (c) => {
      const id = c.req.valid('param').id;
      const [course] = await db.select({ id: courses.id }).from(courses).where(eq(courses.id, id)).limit(1);
      if (!course) throw notFound('course_not_found', 'errors.classNotFound');
      const videoIds = await deleteCourse(db, id);
      await deleteUnreferencedVideos(deps, videoIds);
      c.get('log').info({ event: 'admin_deleted_class', by: c.get('user').id, courseId: id }, 'class deleted');
      return c.json({ message: 'Class deleted', _id: id });
    })

    .get('/overview', answers({ 200: overviewJson }), async (c) => {
      const disk = statfsSync(config.dataDir);
      const queue = await jobQueue(db);
      const overview: OverviewJson = {
        version: VERSION,
        disk: {
          freeBytes: disk.bavail * disk.bsize,
          totalBytes: disk.blocks * disk.bsize,
          mediaBytes:
            (await prefixBytes(storage, VIDEOS_PREFIX)) +
            (await prefixBytes(storage, UPLOADS_PREFIX)) +
            (await prefixBytes(storage, AVATARS_PREFIX)),
          minFreeBytes: config.minFreeDiskBytes,
        },
        queue: queue.map(({ job, subject }) => toQueueEntryJson(job, subject)),
        mail: { kind: mailer.kind, from: config.mailFrom },
        backups: {
          dir: config.backupDir ?? null,
          everyHours: config.backupDir ? config.backupEveryMs / 3_600_000 : null,
          keep: config.backupKeep,
          snapshots: config.backupDir ? listSnapshots(config.backupDir).map(toSnapshotJson) : [],
        },
      };
      return c.json(overview);
    })

    .post('/videos/:id/retry', answers({ 200: messageJson }), validate('param', idParam), async (c) => {
      if (!(await retryFailed(db, c.req.valid('param').id))) {
        throw new ApiError(409, 'not_failed', 'errors.notFailedOrCancelled');
      }
      jobs.wake();
      return c.json({ message: 'Queued again' });
    })

    .post('/videos/:id/cancel', answers({ 200: messageJson }), validate('param', idParam), async (c) => {
      // The job and the video change together: the teacher sees it cancelled, with Retry and Delete.
      if ((await jobs.cancel(c.req.valid('param').id)) === 0) {
        throw new ApiError(409, 'not_running', 'errors.notRunning');
      }
      return c.json({ message: 'Cancelled' });
    })

    .post('/test-mail', answers({ 200: messageJson }), async (c) => {
      const admin = c.get('user');
      await mailer
        .send(testMail(localeOfAccount(admin, config), admin.email, admin.username, mailer.kind))
        .catch((error: Error) => {
          throw new ApiError(503, 'mail_failed', 'errors.testMailFailed', {}, { reason: error.message });
        });
      const sent: MessageKey = mailer.kind === 'smtp' ? 'admin.answer.testMailSent' : 'admin.answer.testMailLogged';
      return c.json({ message: translate(localeOfRequest(c), sent, { email: admin.email }) });
    })

    .post('/backups', answers({ 202: messageJson }), async (c) => {
      if (!config.backupDir) {
        throw badRequest('no_backup_dir', 'errors.noBackupDir');
      }
      await jobs.enqueue('backup', {}, { maxAttempts: 1 });
      return c.json({ message: translate(localeOfRequest(c), 'admin.answer.backupStarted') }, 202);
    });
}
