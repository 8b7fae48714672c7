import { z } from 'zod';
import { LIMITS } from './limits';
import { questionScore } from './questions';
import { idSchema } from './text';
import { isoTime } from './users';

/**
 * Honest coverage, the teacher's view of a class and due dates (issue 33, docs/teaching.md). A lecture's video is
 * split into `LIMITS.coverageParts` parts; a part counts once reports covered at least half of it. Pure zod and
 * constants only, so the web bundle imports this file at run time.
 */

/** A lecture counts as completed once this many of its parts (of `LIMITS.coverageParts`) were played. */
export const COMPLETED_PARTS = 90;

/** What the player played since its last report: `[start, end]` seconds of the video, start < end. */
export const playedRange = z
  .tuple([
    z.number().finite().min(0).max(LIMITS.coverageSecondsMax),
    z.number().finite().min(0).max(LIMITS.coverageSecondsMax),
  ])
  .refine(([start, end]) => start < end, 'errors.invalidInput');

/**
 * `POST /api/lectures/{id}/coverage`: every ~15 s while playing, and once more on `pagehide` (sendBeacon).
 * `offline: true` when a lecture played offline reports what it played once the network is back.
 */
export const coverageBody = z.strictObject({
  ranges: z.array(playedRange).min(1).max(LIMITS.coverageRangesMax),
  rate: z.number().finite().min(LIMITS.playbackRateMin).max(LIMITS.playbackRateMax),
  offline: z.boolean().optional(),
});
export type CoverageBody = z.infer<typeof coverageBody>;

/** The answer to a report (a teacher's or an administrator's report answers 204 and stores nothing). */
export const coverageJson = z.object({
  /** Parts played of 100, as a whole percent. */
  percent: z.number().int().min(0).max(100),
  completed: z.boolean(),
  /** The report claimed more than real time allows: the rest was not counted. */
  capped: z.boolean(),
});
export type CoverageJson = z.infer<typeof coverageJson>;

/** A student's own coverage of a lecture, on every lecture answer (`myCoverage`; null for a teacher or none yet). */
export const myCoverageJson = z.object({
  percent: z.number().int().min(0).max(100),
  completed: z.boolean(),
  /** Completed after the lecture's due date. */
  late: z.boolean(),
  /** Parts played in a row from the start (of `LIMITS.coverageParts`): "no skipping ahead" lets a seek go this far. */
  reach: z.number().int().min(0).max(100),
});
export type MyCoverageJson = z.infer<typeof myCoverageJson>;

/** `dueAt` on `PATCH /api/lectures/{id}/update`: an ISO time, or null to clear it. */
export const dueAtField = isoTime.nullable();

export const INSIGHT_SORTS = ['name', 'percent', 'last'] as const;
export const INSIGHT_FILTERS = ['all', 'not-started', 'in-progress', 'done', 'overdue'] as const;
export type InsightSort = (typeof INSIGHT_SORTS)[number];
export type InsightFilter = (typeof INSIGHT_FILTERS)[number];

/**
 * `GET /api/courses/{id}/insight`: one page of the class's students. `percent` and `last` sort by the average over
 * the lectures (or by `lecture` when given); the filter applies to `lecture` when given, else to any lecture
 * (`done`: every lecture completed; `not-started`: none started; `overdue`: a lecture past its due date not completed).
 */
export const insightQuery = z.object({
  page: z.coerce.number().int().min(1).max(LIMITS.insightPageMax).default(1),
  size: z.coerce.number().int().min(1).max(LIMITS.insightPageSizeMax).default(LIMITS.insightPageSizeDefault),
  sort: z.enum(INSIGHT_SORTS).default('name'),
  dir: z.enum(['asc', 'desc']).default('asc'),
  filter: z.enum(INSIGHT_FILTERS).default('all'),
  lecture: idSchema.optional(),
});
export type InsightQuery = z.infer<typeof insightQuery>;

export const insightLectureJson = z.object({ _id: z.string(), nameOfTopic: z.string(), dueAt: isoTime.nullable() });
export type InsightLectureJson = z.infer<typeof insightLectureJson>;

/** One cell of the table: a student's coverage of one lecture (percent 0 and lastWatchedAt null: not started). */
export const insightCellJson = z.object({
  lectureId: z.string(),
  percent: z.number().int().min(0).max(100),
  completed: z.boolean(),
  lastWatchedAt: isoTime.nullable(),
  late: z.boolean(),
  /** The student's question score in the lecture (src/contract/questions.ts); null without scored questions. */
  score: questionScore,
});
export type InsightCellJson = z.infer<typeof insightCellJson>;

export const insightJson = z.object({
  /** Every lecture of the class, oldest first (the table's columns). */
  lectures: z.array(insightLectureJson),
  students: z.array(
    z.object({
      _id: z.string(),
      username: z.string(),
      /** One cell per lecture, in the order of `lectures`. */
      lectures: z.array(insightCellJson),
    }),
  ),
  page: z.number().int(),
  size: z.number().int(),
  /** Students matching the filter (all pages). */
  total: z.number().int(),
});
export type InsightJson = z.infer<typeof insightJson>;

/** `GET /api/courses/{id}/insight/students/{userId}`: the teacher, or that student themselves. */
export const insightStudentJson = z.object({
  student: z.object({ _id: z.string(), username: z.string() }),
  lectures: z.array(
    z.object({
      lectureId: z.string(),
      nameOfTopic: z.string(),
      dueAt: isoTime.nullable(),
      percent: z.number().int().min(0).max(100),
      completed: z.boolean(),
      late: z.boolean(),
      lastWatchedAt: isoTime.nullable(),
      score: questionScore,
      /** `LIMITS.coverageParts` play counts (0 = not played), capped at 255. */
      parts: z.array(z.number().int().min(0)),
    }),
  ),
});
export type InsightStudentJson = z.infer<typeof insightStudentJson>;

/** `GET /api/lectures/{id}/insight/strip` (the class's teacher): where the class played, and where it went back. */
export const stripJson = z.object({
  /** Per part: how many students played it. */
  parts: z.array(z.number().int().min(0)),
  /** Per part: how many students played it more than once. */
  replays: z.array(z.number().int().min(0)),
  /** Students the counts are over (with tracking off: 0, the counts are anonymous plays). */
  students: z.number().int(),
});
export type StripJson = z.infer<typeof stripJson>;

/** `GET /api/todo` (a signed-in student): lectures with a due date not completed, across their classes, soonest first. */
export const todoJson = z.object({
  items: z.array(
    z.object({
      lectureId: z.string(),
      courseId: z.string(),
      courseName: z.string(),
      nameOfTopic: z.string(),
      dueAt: isoTime,
      percent: z.number().int().min(0).max(100),
      completed: z.boolean(),
      overdue: z.boolean(),
    }),
  ),
});
export type TodoJson = z.infer<typeof todoJson>;

/** The CSV export's address (text/csv, UTF-8 with a BOM). */
export const insightCsvUrl = (courseId: string) => `/api/courses/${courseId}/insight.csv`;
