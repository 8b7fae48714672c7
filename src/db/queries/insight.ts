import { and, asc, desc, eq, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { InsightQuery } from '../../contract/insight';
import { emit } from '../../events/events';
import {
  addRanges,
  budgetSeconds,
  capRanges,
  decodePlays,
  decodeTenths,
  emptyCounts,
  encodePlays,
  encodeTenths,
  isCompleted,
  OFFLINE_EVERY_MS,
  PARTS,
  playedParts,
  playsOf,
  type Range,
  reachOf,
  reportDigest,
} from '../../lib/coverage';
import type { Db } from '../client';
import { forUpdate, inJsonList } from '../dialect';
import { preparedStatement } from '../prepared';
import {
  courseCoverage,
  courses,
  enrollments,
  type Lecture,
  lecturePartTotals,
  lectures,
  users,
  type WatchCoverage,
  watchCoverage,
} from '../schema';
import { transaction } from '../transaction';

/** The same report again within this time adds nothing (a `pagehide` beacon right after a tick). */
const SAME_REPORT_MS = 60_000;

export type CoverageResult = { percent: number; completed: boolean; capped: boolean };

const resultOf = (row: Pick<WatchCoverage, 'playedParts' | 'completedAt'>, capped: boolean): CoverageResult => ({
  percent: Math.round((row.playedParts / PARTS) * 100),
  completed: row.completedAt !== null,
  capped,
});

/**
 * Adds one report of a student to their coverage of a lecture, capped by what real time allows (src/lib/coverage.ts):
 * one transaction, the row locked, so two reports at once cannot both spend the same time.
 */
export async function recordCoverage(
  db: Db,
  report: {
    userId: string;
    lecture: Pick<Lecture, 'id' | 'courseId' | 'dueAt'>;
    duration: number;
    ranges: readonly Range[];
    rate: number;
    offline: boolean;
    now: number;
  },
): Promise<CoverageResult> {
  const { userId, lecture, duration, now } = report;
  return transaction(db, async (tx) => {
    const [row] = await forUpdate(
      tx,
      tx
        .select()
        .from(watchCoverage)
        .where(and(eq(watchCoverage.userId, userId), eq(watchCoverage.lectureId, lecture.id)))
        .limit(1),
    );
    const digest = reportDigest(report.ranges, report.offline);
    if (row && row.lastReport === digest && now - row.lastAt < SAME_REPORT_MS) return resultOf(row, false);
    const offline = report.offline && (!row?.offlineAt || now - row.offlineAt >= OFFLINE_EVERY_MS);
    const budget = budgetSeconds({ rate: report.rate, lastAt: row?.lastAt, now, offline, duration });
    const { kept, capped } = capRanges(report.ranges, duration, budget);
    const tenths = addRanges(row ? decodeTenths(row.partial) : emptyCounts(), kept, duration);
    const plays = playsOf(tenths, duration);
    const parts = playedParts(plays);
    const added = kept.reduce((sum, [start, end]) => sum + (end - start), 0);
    const completedAt = row?.completedAt ?? (isCompleted(parts) ? now : null);
    const values = {
      plays: encodePlays(plays),
      partial: encodeTenths(tenths),
      playedParts: parts,
      watchedSeconds: (row?.watchedSeconds ?? 0) + added,
      lastAt: now,
      offlineAt: offline ? now : (row?.offlineAt ?? null),
      lastReport: digest,
      completedAt,
      // Decided once, when it is completed.
      late: row?.completedAt ? row.late : completedAt !== null && lecture.dueAt !== null && completedAt > lecture.dueAt,
    };
    if (row) {
      await tx
        .update(watchCoverage)
        .set(values)
        .where(and(eq(watchCoverage.userId, userId), eq(watchCoverage.lectureId, lecture.id)));
    } else {
      await tx.insert(watchCoverage).values({ userId, lectureId: lecture.id, firstAt: now, ...values });
    }
    // The class's totals move by the same step (one upsert by primary key).
    const step = {
      parts: parts - (row?.playedParts ?? 0),
      started: row ? 0 : 1,
      done: completedAt !== null && !row?.completedAt ? 1 : 0,
    };
    await tx
      .insert(courseCoverage)
      .values({ courseId: lecture.courseId, userId, ...step, lastAt: now })
      .onConflictDoUpdate({
        target: [courseCoverage.courseId, courseCoverage.userId],
        set: {
          parts: sql`${courseCoverage.parts} + ${step.parts}`,
          started: sql`${courseCoverage.started} + ${step.started}`,
          done: sql`${courseCoverage.done} + ${step.done}`,
          lastAt: now,
        },
      });
    // Only a change of what a grade is made of is told (a report that added no part is the hot path's usual case).
    if (parts !== (row?.playedParts ?? 0) || (completedAt !== null && !row?.completedAt)) {
      await emit(tx, { type: 'coverage-recorded', lectureId: lecture.id, userId });
    }
    return resultOf(values, capped);
  });
}

/**
 * With STUDENT_TRACKING=off: adds a report to the lecture's anonymous totals (tenths of a second per part, over
 * everyone). Each report is capped as a first one is: no per-student time is kept to cap it by.
 */
export async function recordAnonymous(
  db: Db,
  report: {
    lectureId: string;
    duration: number;
    ranges: readonly Range[];
    rate: number;
    offline: boolean;
    now: number;
  },
) {
  const budget = budgetSeconds({ ...report, lastAt: undefined });
  const { kept, capped } = capRanges(report.ranges, report.duration, budget);
  await transaction(db, async (tx) => {
    const [row] = await forUpdate(
      tx,
      tx.select().from(lecturePartTotals).where(eq(lecturePartTotals.lectureId, report.lectureId)).limit(1),
    );
    const tenths = encodeTenths(addRanges(row ? decodeTenths(row.plays) : emptyCounts(), kept, report.duration));
    if (row) {
      await tx
        .update(lecturePartTotals)
        .set({ plays: tenths, updatedAt: report.now })
        .where(eq(lecturePartTotals.lectureId, report.lectureId));
    } else {
      await tx.insert(lecturePartTotals).values({ lectureId: report.lectureId, plays: tenths, updatedAt: report.now });
    }
  });
  return { percent: 0, completed: false, capped };
}

/** A student's coverage of a list of lectures, prepared once per database: the lecture list reads it every time. */
const coverageInListQuery = preparedStatement('coverage_in_list', (db: Db) =>
  db
    .select({
      lectureId: watchCoverage.lectureId,
      plays: watchCoverage.plays,
      playedParts: watchCoverage.playedParts,
      completedAt: watchCoverage.completedAt,
      late: watchCoverage.late,
    })
    .from(watchCoverage)
    .where(
      and(
        eq(watchCoverage.userId, sql.placeholder('userId')),
        inJsonList(db, watchCoverage.lectureId, sql.placeholder('ids')),
      ),
    ),
);

/** A student's coverage of some lectures, by lecture (the lecture answers' `myCoverage`). */
export async function coverageOfLectures(db: Db, userId: string, lectureIds: string[]) {
  const found = new Map<string, { percent: number; completed: boolean; late: boolean; reach: number }>();
  if (lectureIds.length === 0) return found;
  const rows = await coverageInListQuery(db, { userId, ids: JSON.stringify(lectureIds) });
  for (const row of rows) {
    const { percent, completed } = resultOf(row, false);
    found.set(row.lectureId, { percent, completed, late: row.late, reach: reachOf(decodePlays(row.plays)) });
  }
  return found;
}

/** Every coverage row of a student in one class: what leaving it or being removed deletes. */
export async function deleteCoverageInCourse(db: Db, courseId: string, userId: string) {
  await db
    .delete(watchCoverage)
    .where(
      and(
        eq(watchCoverage.userId, userId),
        inArray(
          watchCoverage.lectureId,
          db.select({ id: lectures.id }).from(lectures).where(eq(lectures.courseId, courseId)),
        ),
      ),
    );
  await db.delete(courseCoverage).where(and(eq(courseCoverage.courseId, courseId), eq(courseCoverage.userId, userId)));
}

/** With tracking off, no per-student row is kept: those from before are deleted. */
export async function deleteAllCoverage(db: Db) {
  await db.delete(watchCoverage);
  await db.delete(courseCoverage);
}

/** A class's totals again from its coverage rows (after one of its lectures was deleted with its rows). */
export async function rebuildCourseCoverage(db: Db, courseId: string) {
  await transaction(db, async (tx) => {
    await tx.delete(courseCoverage).where(eq(courseCoverage.courseId, courseId));
    const rows = await tx
      .select({
        userId: watchCoverage.userId,
        parts: sql<number>`sum(${watchCoverage.playedParts})`,
        started: sql<number>`count(*)`,
        done: sql<number>`sum(case when ${watchCoverage.completedAt} is not null then 1 else 0 end)`,
        lastAt: sql<number>`max(${watchCoverage.lastAt})`,
      })
      .from(watchCoverage)
      .innerJoin(lectures, eq(lectures.id, watchCoverage.lectureId))
      .where(eq(lectures.courseId, courseId))
      .groupBy(watchCoverage.userId);
    const values = rows.map((row) => ({
      courseId,
      userId: row.userId,
      parts: Number(row.parts),
      started: Number(row.started),
      done: Number(row.done),
      lastAt: Number(row.lastAt),
    }));
    for (let start = 0; start < values.length; start += 500) {
      await tx.insert(courseCoverage).values(values.slice(start, start + 500));
    }
  });
}

export const lecturesForInsight = (db: Db, courseId: string) =>
  db
    .select({ id: lectures.id, nameOfTopic: lectures.nameOfTopic, dueAt: lectures.dueAt })
    .from(lectures)
    .where(eq(lectures.courseId, courseId))
    .orderBy(asc(lectures.createdAt), asc(lectures.id));

/**
 * One page of a class's students for the teacher's table, filtered, sorted and paged in SQL. Over every lecture, the
 * sorts and filters read the class's totals (`course_coverage`, one row per student, kept with each report); for one
 * lecture, that lecture's row per student by primary key. The page's cells come from a second query.
 */
export async function insightPage(db: Db, courseId: string, query: InsightQuery, lectureCount: number, now: number) {
  const one = query.lecture;
  const row = (column: SQL) =>
    sql`(select ${column} from ${watchCoverage} where ${watchCoverage.userId} = ${users.id} and ${watchCoverage.lectureId} = ${one})`;
  const figures = one
    ? {
        started: sql`exists (select 1 from ${watchCoverage} where ${watchCoverage.userId} = ${users.id} and ${watchCoverage.lectureId} = ${one})`,
        done: sql`coalesce(${row(sql`case when ${watchCoverage.completedAt} is not null then 1 else 0 end`)}, 0)`,
        parts: sql`coalesce(${row(sql`${watchCoverage.playedParts}`)}, 0)`,
        last: sql`coalesce(${row(sql`${watchCoverage.lastAt}`)}, 0)`,
      }
    : {
        started: sql`coalesce(${courseCoverage.started}, 0) > 0`,
        done: sql`coalesce(${courseCoverage.done}, 0)`,
        parts: sql`coalesce(${courseCoverage.parts}, 0)`,
        last: sql`coalesce(${courseCoverage.lastAt}, 0)`,
      };
  const expected = one ? 1 : lectureCount;
  const overdue = sql`exists (select 1 from ${lectures} where ${lectures.courseId} = ${courseId} and ${lectures.dueAt} < ${now}${
    one ? sql` and ${lectures.id} = ${one}` : sql``
  } and not exists (select 1 from ${watchCoverage} where ${watchCoverage.userId} = ${users.id} and ${watchCoverage.lectureId} = ${lectures.id} and ${watchCoverage.completedAt} is not null))`;
  const filters: Record<InsightQuery['filter'], SQL | undefined> = {
    all: undefined,
    'not-started': sql`not (${figures.started})`,
    'in-progress': and(figures.started, sql`${figures.done} < ${expected}`),
    done: expected > 0 ? sql`${figures.done} >= ${expected}` : sql`1 = 0`,
    overdue,
  };
  const where = and(eq(enrollments.courseId, courseId), filters[query.filter]);
  const direction = query.dir === 'desc' ? desc : asc;
  const order = {
    name: [direction(users.username)],
    percent: [direction(figures.parts), asc(users.username)],
    last: [direction(figures.last), asc(users.username)],
  }[query.sort];
  const totals = and(eq(courseCoverage.courseId, courseId), eq(courseCoverage.userId, users.id));
  const [counted] = await db
    .select({ total: sql<number>`count(*)` })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .leftJoin(courseCoverage, totals)
    .where(where);
  const students = await db
    .select({ id: users.id, username: users.username })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .leftJoin(courseCoverage, totals)
    .where(where)
    .orderBy(...order, asc(users.id))
    .limit(query.size)
    .offset((query.page - 1) * query.size);
  const cells = await coverageCells(
    db,
    courseId,
    students.map((student) => student.id),
  );
  return { students, cells, total: Number(counted?.total ?? 0) };
}

/** The coverage rows of these students in a class (without the per-part text), by student then lecture. */
export async function coverageCells(db: Db, courseId: string, userIds: string[]) {
  const byStudent = new Map<
    string,
    Map<string, Pick<WatchCoverage, 'playedParts' | 'completedAt' | 'lastAt' | 'late'>>
  >();
  if (userIds.length === 0) return byStudent;
  const rows = await db
    .select({
      userId: watchCoverage.userId,
      lectureId: watchCoverage.lectureId,
      playedParts: watchCoverage.playedParts,
      completedAt: watchCoverage.completedAt,
      lastAt: watchCoverage.lastAt,
      late: watchCoverage.late,
    })
    .from(watchCoverage)
    .innerJoin(lectures, eq(lectures.id, watchCoverage.lectureId))
    .where(and(eq(lectures.courseId, courseId), inArray(watchCoverage.userId, userIds)));
  for (const row of rows) {
    const mine = byStudent.get(row.userId) ?? new Map();
    mine.set(row.lectureId, row);
    byStudent.set(row.userId, mine);
  }
  return byStudent;
}

/** Every enrolled student of a class, by name (the CSV export). */
export const studentsOfCourse = (db: Db, courseId: string) =>
  db
    .select({ id: users.id, username: users.username })
    .from(enrollments)
    .innerJoin(users, eq(users.id, enrollments.studentId))
    .where(eq(enrollments.courseId, courseId))
    .orderBy(asc(users.username), asc(users.id));

/** One student's rows in a class, with their per-part play counts. */
export async function studentCoverage(db: Db, courseId: string, userId: string) {
  return db
    .select({
      lectureId: watchCoverage.lectureId,
      plays: watchCoverage.plays,
      playedParts: watchCoverage.playedParts,
      completedAt: watchCoverage.completedAt,
      lastAt: watchCoverage.lastAt,
      late: watchCoverage.late,
    })
    .from(watchCoverage)
    .innerJoin(lectures, eq(lectures.id, watchCoverage.lectureId))
    .where(and(eq(lectures.courseId, courseId), eq(watchCoverage.userId, userId)));
}

/** Per part, how many students played it and how many more than once; with tracking off, anonymous plays. */
export async function stripOf(db: Db, lectureId: string, duration: number, tracking: boolean) {
  const parts = emptyCounts();
  const replays = emptyCounts();
  if (!tracking) {
    const [row] = await db.select().from(lecturePartTotals).where(eq(lecturePartTotals.lectureId, lectureId)).limit(1);
    const tenths = row ? decodeTenths(row.plays) : emptyCounts();
    const part = duration > 0 ? (duration / PARTS) * 10 : 0;
    return { parts: tenths.map((value) => (part > 0 ? Math.round(value / part) : 0)), replays, students: 0 };
  }
  const rows = await db
    .select({ plays: watchCoverage.plays })
    .from(watchCoverage)
    .where(eq(watchCoverage.lectureId, lectureId));
  for (const row of rows) {
    const plays = decodePlays(row.plays);
    for (let part = 0; part < PARTS; part++) {
      const count = plays[part] ?? 0;
      if (count > 0) parts[part] = (parts[part] ?? 0) + 1;
      if (count > 1) replays[part] = (replays[part] ?? 0) + 1;
    }
  }
  return { parts, replays, students: rows.length };
}

/** A student's lectures with a due date not completed, across their classes, soonest first. */
export async function todoOf(db: Db, userId: string) {
  return db
    .select({
      lectureId: lectures.id,
      courseId: courses.id,
      courseName: courses.courseName,
      nameOfTopic: lectures.nameOfTopic,
      dueAt: lectures.dueAt,
      playedParts: watchCoverage.playedParts,
      completedAt: watchCoverage.completedAt,
    })
    .from(enrollments)
    .innerJoin(courses, eq(courses.id, enrollments.courseId))
    .innerJoin(lectures, eq(lectures.courseId, courses.id))
    .leftJoin(watchCoverage, and(eq(watchCoverage.lectureId, lectures.id), eq(watchCoverage.userId, userId)))
    .where(and(eq(enrollments.studentId, userId), isNotNull(lectures.dueAt), isNull(watchCoverage.completedAt)))
    .orderBy(asc(lectures.dueAt), asc(lectures.id))
    .limit(200);
}

/** Sets or clears a lecture's due date; a new date may be reminded of again. */
export async function setDueAt(db: Db, lectureId: string, dueAt: number | null) {
  await db.update(lectures).set({ dueAt, remindedAt: null }).where(eq(lectures.id, lectureId));
}
