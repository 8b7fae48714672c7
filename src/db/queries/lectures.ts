import { and, asc, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { type PersonalState, toLectureJson } from '../../contract/lectures';
import { newId } from '../../lib/ids';
import type { Db } from '../client';
import { preparedPerDatabase } from '../prepared';
import {
  type Caption,
  captions,
  type Lecture,
  lectures,
  likes,
  type User,
  type Video,
  videos,
  viewMarks,
  watchProgress,
} from '../schema';
import { transaction } from '../transaction';

export const VIEW_WINDOW_MS = 60 * 60 * 1000;

/** `column IN` a JSON array bound as one parameter: a list query that can be prepared once. */
const inJsonList = (column: SQLiteColumn, name: string) =>
  sql`${column} in (select value from json_each(${sql.placeholder(name)}))`;

/**
 * The lecture list's queries, prepared once per database: the class's lectures, their videos, the user's likes and
 * progress, and captions. Building them with drizzle on every request cost about four times running them.
 */
const listQueries = preparedPerDatabase((db: Db) => ({
  ofCourse: db
    .select()
    .from(lectures)
    .where(eq(lectures.courseId, sql.placeholder('courseId')))
    .orderBy(asc(lectures.createdAt))
    .prepare(),
  videos: db.select().from(videos).where(inJsonList(videos.id, 'ids')).prepare(),
  liked: db
    .select({ lectureId: likes.lectureId })
    .from(likes)
    .where(and(eq(likes.userId, sql.placeholder('userId')), inJsonList(likes.lectureId, 'ids')))
    .prepare(),
  progress: db
    .select()
    .from(watchProgress)
    .where(and(eq(watchProgress.userId, sql.placeholder('userId')), inJsonList(watchProgress.lectureId, 'ids')))
    .prepare(),
  captions: db
    .select({ id: captions.id, lectureId: captions.lectureId, language: captions.language, label: captions.label })
    .from(captions)
    .where(inJsonList(captions.lectureId, 'ids'))
    .orderBy(asc(captions.label))
    .prepare(),
}));

/** Whether the user liked each lecture and where they got to in it: two indexed queries for the whole list. */
async function personalState(db: Db, userId: string, lectureIds: string[]) {
  const state = new Map<string, PersonalState>(lectureIds.map((id) => [id, { liked: false, progress: null }]));
  if (lectureIds.length === 0) return state;
  const ids = JSON.stringify(lectureIds);
  const liked = await listQueries(db).liked.all({ userId, ids });
  for (const row of liked) {
    const entry = state.get(row.lectureId);
    if (entry) entry.liked = true;
  }
  const progress = await listQueries(db).progress.all({ userId, ids });
  for (const row of progress) {
    const entry = state.get(row.lectureId);
    if (entry)
      entry.progress = { position: row.positionSeconds, duration: row.durationSeconds, completed: row.completed };
  }
  return state;
}

/** Videos of these lectures, in one query. */
async function videosOf(db: Db, rows: Lecture[]): Promise<Map<string, Video>> {
  const ids = [...new Set(rows.map((row) => row.videoId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const found = await listQueries(db).videos.all({ ids: JSON.stringify(ids) });
  return new Map(found.map((video) => [video.id, video]));
}

/** The captions of these lectures (without their text), by lecture, in one query. */
export async function captionsOf(db: Db, lectureIds: string[]) {
  const byLecture = new Map<string, CaptionInfo[]>();
  if (lectureIds.length === 0) return byLecture;
  const rows = await listQueries(db).captions.all({ ids: JSON.stringify(lectureIds) });
  for (const row of rows) byLecture.set(row.lectureId, [...(byLecture.get(row.lectureId) ?? []), row]);
  return byLecture;
}
export type CaptionInfo = Pick<Caption, 'id' | 'lectureId' | 'language' | 'label'>;

/** Lectures as one user sees them: with their video and captions, and whether they liked it and where they got to. */
export async function lecturesAsSeenBy(db: Db, user: Pick<User, 'id'>, rows: Lecture[]) {
  const ids = rows.map((row) => row.id);
  const videoById = await videosOf(db, rows);
  const mine = await personalState(db, user.id, ids);
  const captionsByLecture = await captionsOf(db, ids);
  return rows.map((row) =>
    toLectureJson(row, videoById.get(row.videoId ?? ''), mine.get(row.id), captionsByLecture.get(row.id)),
  );
}

export const captionOfLecture = async (db: Db, lectureId: string, captionId: string) =>
  db
    .select()
    .from(captions)
    .where(and(eq(captions.lectureId, lectureId), eq(captions.id, captionId)))
    .get();

/**
 * Adds the lecture's captions in a language, or replaces those it has (same id, new text and label).
 * Answers the row and whether it is new; undefined when the lecture already has as many languages as allowed.
 */
export async function putCaption(
  db: Db,
  values: { lectureId: string; language: string; label: string; vtt: string },
  maxPerLecture: number,
) {
  return transaction(db, async (tx) => {
    const existing = await tx
      .select({ id: captions.id })
      .from(captions)
      .where(and(eq(captions.lectureId, values.lectureId), eq(captions.language, values.language)))
      .get();
    if (existing) {
      const row = await tx
        .update(captions)
        .set({ label: values.label, vtt: values.vtt, updatedAt: Date.now() })
        .where(eq(captions.id, existing.id))
        .returning()
        .get();
      return { row: row as Caption, created: false };
    }
    const count =
      (
        await tx
          .select({ n: sql<number>`count(*)` })
          .from(captions)
          .where(eq(captions.lectureId, values.lectureId))
          .get()
      )?.n ?? 0;
    if (count >= maxPerLecture) return undefined;
    const row = await tx
      .insert(captions)
      .values({ id: newId(), ...values })
      .returning()
      .get();
    return { row: row as Caption, created: true };
  });
}

export async function deleteCaption(db: Db, captionId: string) {
  await db.delete(captions).where(eq(captions.id, captionId));
}

export const lecturesOfCourse = async (db: Db, courseId: string) => listQueries(db).ofCourse.all({ courseId });

export const videoById = async (db: Db, videoId: string) =>
  db.select().from(videos).where(eq(videos.id, videoId)).get();

/** The (first) topic that shows a video, if any. */
export const lectureOfVideo = async (db: Db, videoId: string) =>
  db.select().from(lectures).where(eq(lectures.videoId, videoId)).get();

export const videoOwner = async (db: Db, videoId: string) =>
  db.select({ id: videos.id, ownerId: videos.ownerId }).from(videos).where(eq(videos.id, videoId)).get();

export async function createLecture(db: Db, values: { courseId: string; nameOfTopic: string; videoId: string | null }) {
  return (await db
    .insert(lectures)
    .values({ id: newId(), ...values })
    .returning()
    .get()) as Lecture;
}

export async function updateLecture(db: Db, id: string, values: { nameOfTopic: string; videoId: string | null }) {
  return (await db.update(lectures).set(values).where(eq(lectures.id, id)).returning().get()) as Lecture;
}

export async function deleteLecture(db: Db, id: string) {
  await db.delete(lectures).where(eq(lectures.id, id));
}

/** Views and likes, prepared once per database: a player counts a view each time a lecture opens. */
const reactionQueries = preparedPerDatabase((db: Db) => {
  const lectureId = sql.placeholder('lectureId');
  const userId = sql.placeholder('userId');
  const byLecture = eq(lectures.id, lectureId);
  return {
    markView: db
      .insert(viewMarks)
      .values({ lectureId, userId, countedAt: sql.placeholder('now') })
      .onConflictDoUpdate({
        target: [viewMarks.lectureId, viewMarks.userId],
        set: { countedAt: sql`${sql.placeholder('now')}` },
        setWhere: sql`${viewMarks.countedAt} <= ${sql.placeholder('windowStart')}`,
      })
      .returning()
      .prepare(),
    addView: db
      .update(lectures)
      .set({ noOfViews: sql`${lectures.noOfViews} + 1` })
      .where(byLecture)
      .prepare(),
    addLike: db.insert(likes).values({ lectureId, userId }).onConflictDoNothing().returning().prepare(),
    removeLike: db
      .delete(likes)
      .where(and(eq(likes.lectureId, lectureId), eq(likes.userId, userId)))
      .returning()
      .prepare(),
    changeLikes: db
      .update(lectures)
      .set({ noOfLikes: sql`max(0, ${lectures.noOfLikes} + ${sql.placeholder('change')})` })
      .where(byLecture)
      .prepare(),
    counts: db
      .select({ noOfViews: lectures.noOfViews, noOfLikes: lectures.noOfLikes })
      .from(lectures)
      .where(byLecture)
      .prepare(),
  };
});

const countsOf = async (db: Db, lectureId: string) =>
  (await reactionQueries(db).counts.get({ lectureId })) ?? { noOfViews: 0, noOfLikes: 0 };

/** Counts a view when this user's last counted view of the lecture is over an hour old (or there is none). */
export async function countView(db: Db, lectureId: string, userId: string, now = Date.now()) {
  const q = reactionQueries(db);
  const counted = await transaction(db, async () => {
    const mark = await q.markView.get({ lectureId, userId, now, windowStart: now - VIEW_WINDOW_MS });
    if (!mark) return false;
    await q.addView.run({ lectureId });
    return true;
  });
  return { noOfViews: (await countsOf(db, lectureId)).noOfViews, counted };
}

/** Adds the user's like once; answers whether it was new and the count. */
export async function addLike(db: Db, lectureId: string, userId: string) {
  const q = reactionQueries(db);
  const added = await transaction(db, async () => {
    if (!(await q.addLike.get({ lectureId, userId }))) return false;
    await q.changeLikes.run({ lectureId, change: 1 });
    return true;
  });
  return { added, noOfLikes: (await countsOf(db, lectureId)).noOfLikes };
}

export async function removeLike(db: Db, lectureId: string, userId: string) {
  const q = reactionQueries(db);
  await transaction(db, async () => {
    if (await q.removeLike.get({ lectureId, userId })) await q.changeLikes.run({ lectureId, change: -1 });
  });
  return { noOfLikes: (await countsOf(db, lectureId)).noOfLikes };
}
