import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { readableCourse, readableLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import {
  coverageBody,
  coverageJson,
  type InsightCellJson,
  insightJson,
  insightQuery,
  insightStudentJson,
  stripJson,
  todoJson,
} from '../contract/insight';
import type { QuestionScore } from '../contract/questions';
import type { Db } from '../db/client';
import {
  coverageCells,
  insightPage,
  lecturesForInsight,
  recordAnonymous,
  recordCoverage,
  stripOf,
  studentCoverage,
  studentsOfCourse,
  todoOf,
} from '../db/queries/insight';
import { videoById } from '../db/queries/lectures';
import { questionScores } from '../db/queries/questions';
import type { Lecture, User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, errorBody, forbidden, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, idSchema, validate } from '../http/validation';
import { localeOfRequest, type MessageKey, translate } from '../i18n/translate';
import { decodePlays } from '../lib/coverage';

/** A report is a few hundred bytes; anything much bigger is refused before it is read. */
const REPORT_MAX_BYTES = 8 * 1024;
/** The CSV export covers a class of this many students at most (bigger classes: the paged table). */
const CSV_STUDENTS_MAX = 5000;

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());
/** With STUDENT_TRACKING=off, what shows one student's records answers this. */
export const trackingOff = () => new ApiError(409, 'tracking_off', 'errors.trackingOff');
const studentParam = z.object({ id: idSchema, userId: idSchema });

/** The seconds of a lecture's video, or a 409 `no_video` (saying `message`) when it has none that plays yet. */
export async function durationOf(db: Db, lecture: Lecture, message: MessageKey = 'errors.coverageNoVideo') {
  const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
  const seconds = video ? video.durationMs / 1000 : 0;
  if (!video || seconds <= 0) throw new ApiError(409, 'no_video', message);
  return seconds;
}

/** The class if the user teaches it; a student gets 403, anyone else the class's 404. */
async function taughtForInsight(db: Db, user: User, courseId: string) {
  const access = await readableCourse(db, user, courseId);
  if (access.membership !== 'teacher') throw forbidden('errors.onlyTeacherSeesProgress');
  return access.course;
}

/**
 * Coverage reports and the strip: lectures' sub-resources (docs/teaching.md). Mounted inside the lectures routes;
 * every route asks for a signed-in user itself.
 */
export function coverageRoutes(deps: AppDeps) {
  const { db, config } = deps;
  const signedIn = requireUser(deps);
  const smallReport = bodyLimit({
    maxSize: REPORT_MAX_BYTES,
    onError: (c) => c.json(errorBody(c, 'invalid_input', 'errors.requestTooLarge'), 400),
  });
  return new Hono<AppEnv>()
    .post(
      '/:id/coverage',
      answers({ 200: coverageJson, 204: 'The class’s teacher or an administrator: nothing is counted.' }),
      signedIn,
      smallReport,
      validate('param', idParam),
      validate('json', coverageBody),
      async (c) => {
        const user = c.get('user');
        // An administrator's or the class's teacher's viewing is never counted.
        if (user.isAdmin) return c.body(null, 204);
        const { lecture, membership } = await readableLecture(db, user, c.req.valid('param').id);
        if (membership === 'teacher') return c.body(null, 204);
        const duration = await durationOf(db, lecture);
        const body = c.req.valid('json');
        if (body.ranges.some(([, end]) => end > duration + 1)) {
          throw new ApiError(400, 'invalid_input', 'errors.invalidInput', {
            fields: { ranges: 'errors.invalidInput' },
          });
        }
        const report = {
          duration,
          ranges: body.ranges,
          rate: body.rate,
          offline: body.offline ?? false,
          now: Date.now(),
        };
        const result = config.studentTracking
          ? await recordCoverage(db, { ...report, userId: user.id, lecture })
          : await recordAnonymous(db, { ...report, lectureId: lecture.id });
        return c.json(result, 200);
      },
    )

    .get('/:id/insight/strip', answers({ 200: stripJson }), signedIn, validate('param', idParam), async (c) => {
      const { lecture, membership } = await readableLecture(db, c.get('user'), c.req.valid('param').id);
      if (membership !== 'teacher') throw forbidden('errors.onlyTeacherSeesProgress');
      const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
      return c.json(await stripOf(db, lecture.id, (video?.durationMs ?? 0) / 1000, config.studentTracking));
    });
}

/** The teacher's view of a class: the table, its CSV, one student's page (theirs too). Under /api/courses. */
export function insightRoutes(deps: AppDeps) {
  const { db, config } = deps;
  return new Hono<AppEnv>()
    .use(requireUser(deps))
    .get(
      '/:id/insight',
      answers({ 200: insightJson }),
      validate('param', idParam),
      validate('query', insightQuery),
      async (c) => {
        const course = await taughtForInsight(db, c.get('user'), c.req.valid('param').id);
        if (!config.studentTracking) throw trackingOff();
        const query = c.req.valid('query');
        const lectures = await lecturesForInsight(db, course.id);
        if (query.lecture && !lectures.some((lecture) => lecture.id === query.lecture)) {
          throw notFound('lecture_not_found', 'errors.lectureNotFound');
        }
        const page = await insightPage(db, course.id, query, lectures.length, Date.now());
        const scoreOf = await questionScores(
          db,
          course.id,
          page.students.map((student) => student.id),
        );
        return c.json({
          lectures: lectures.map((lecture) => ({
            _id: lecture.id,
            nameOfTopic: lecture.nameOfTopic,
            dueAt: iso(lecture.dueAt),
          })),
          students: page.students.map((student) => ({
            _id: student.id,
            username: student.username,
            lectures: lectures.map((lecture) =>
              cellOf(lecture.id, page.cells.get(student.id)?.get(lecture.id), scoreOf(student.id, lecture.id)),
            ),
          })),
          page: query.page,
          size: query.size,
          total: page.total,
        });
      },
    )

    .get(
      '/:id/insight.csv',
      answers({ 200: { media: 'text/csv', description: 'The table as CSV (UTF-8 with a BOM).' } }),
      validate('param', idParam),
      async (c) => {
        const course = await taughtForInsight(db, c.get('user'), c.req.valid('param').id);
        if (!config.studentTracking) throw trackingOff();
        const locale = localeOfRequest(c);
        const lectures = await lecturesForInsight(db, course.id);
        const students = (await studentsOfCourse(db, course.id)).slice(0, CSV_STUDENTS_MAX);
        const studentIds = students.map((student) => student.id);
        const cells = await coverageCells(db, course.id, studentIds);
        const scoreOf = await questionScores(db, course.id, studentIds);
        const yes = translate(locale, 'coverageCsv.yes');
        const no = translate(locale, 'coverageCsv.no');
        const header = [
          translate(locale, 'coverageCsv.name'),
          ...lectures.flatMap((lecture) => [
            translate(locale, 'coverageCsv.percent', { title: lecture.nameOfTopic }),
            translate(locale, 'coverageCsv.completed', { title: lecture.nameOfTopic }),
            translate(locale, 'coverageCsv.lastWatched', { title: lecture.nameOfTopic }),
            translate(locale, 'coverageCsv.score', { title: lecture.nameOfTopic }),
          ]),
        ];
        const rows = students.map((student) => [
          student.username,
          ...lectures.flatMap((lecture) => {
            const cell = cellOf(lecture.id, cells.get(student.id)?.get(lecture.id), scoreOf(student.id, lecture.id));
            const score = cell.score ? String(cell.score.percent) : '';
            return [String(cell.percent), cell.completed ? yes : no, cell.lastWatchedAt ?? '', score];
          }),
        ]);
        const text = `\uFEFF${[header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
        return c.body(text, 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': 'attachment; filename="insight.csv"',
          'Cache-Control': 'no-store',
        });
      },
    )

    .get(
      '/:id/insight/students/:userId',
      answers({ 200: insightStudentJson }),
      validate('param', studentParam),
      async (c) => {
        const user = c.get('user');
        const { id, userId } = c.req.valid('param');
        const { course, membership } = await readableCourse(db, user, id);
        if (membership !== 'teacher' && user.id !== userId) throw forbidden('errors.onlyTeacherSeesProgress');
        if (!config.studentTracking) throw trackingOff();
        const student = (await studentsOfCourse(db, course.id)).find((row) => row.id === userId);
        if (!student) throw notFound('student_not_found', 'errors.studentNotInClass');
        const lectures = await lecturesForInsight(db, course.id);
        const rows = new Map((await studentCoverage(db, course.id, userId)).map((row) => [row.lectureId, row]));
        const scoreOf = await questionScores(db, course.id, [userId]);
        return c.json({
          student: { _id: student.id, username: student.username },
          lectures: lectures.map((lecture) => {
            const row = rows.get(lecture.id);
            return {
              nameOfTopic: lecture.nameOfTopic,
              dueAt: iso(lecture.dueAt),
              ...cellOf(lecture.id, row, scoreOf(userId, lecture.id)),
              parts: row ? decodePlays(row.plays) : decodePlays(''),
            };
          }),
        });
      },
    );
}

/** `GET /api/todo`: a student's lectures with a due date, not completed, soonest first. */
export function todoRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', answers({ 200: todoJson }), requireUser(deps), async (c) => {
    const now = Date.now();
    const rows = await todoOf(deps.db, c.get('user').id);
    return c.json({
      items: rows.map((row) => ({
        lectureId: row.lectureId,
        courseId: row.courseId,
        courseName: row.courseName,
        nameOfTopic: row.nameOfTopic,
        dueAt: new Date(row.dueAt ?? now).toISOString(),
        percent: row.playedParts ?? 0,
        completed: row.completedAt !== null,
        overdue: (row.dueAt ?? now) < now,
      })),
    });
  });
}

function cellOf(
  lectureId: string,
  row: { playedParts: number; completedAt: number | null; lastAt: number; late: boolean } | undefined,
  score: QuestionScore,
): InsightCellJson {
  return {
    lectureId,
    percent: row?.playedParts ?? 0,
    completed: row ? row.completedAt !== null : false,
    lastWatchedAt: iso(row?.lastAt),
    late: row?.late ?? false,
    score,
  };
}

/** One CSV cell: quoted, and a leading = + - @ made inert so a spreadsheet never runs a name as a formula. */
function csvCell(value: string) {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}
