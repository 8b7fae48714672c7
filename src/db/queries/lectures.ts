import { and, asc, count, eq, type SQL, sql } from 'drizzle-orm';
import type { PersonalState } from '../../contract/lectures';
import { emit } from '../../events/events';
import { newId } from '../../lib/ids';
import type { Db } from '../client';
import { engineOf, forUpdate, greatest, inJsonList } from '../dialect';
import { preparedStatement } from '../prepared';
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
import { coverageOfLectures } from './insight';

export const VIEW_WINDOW_MS = 60 * 60 * 1000;

/*
 * The lecture list's queries, prepared once per database: the class's lectures, their videos, the user's likes and
 * progress, and captions. Building them with drizzle on every request cost about four times running them. A list
 * of ids is bound as one JSON parameter (`inJsonList`), so each statement is prepared once whatever its length.
 */
const lecturesOfCourseQuery = preparedStatement('lectures_of_course', (db: Db) =>
  db
    .select()
    .from(lectures)
    .where(eq(lectures.courseId, sql.placeholder('courseId')))
    .orderBy(asc(lectures.createdAt)),
);
const videosQuery = preparedStatement('videos_in_list', (db: Db) =>
  db
    .select()
    .from(videos)
    .where(inJsonList(db, videos.id, sql.placeholder('ids'))),
);
const likedQuery = preparedStatement('liked_in_list', (db: Db) =>
  db
    .select({ lectureId: likes.lectureId })
    .from(likes)
    .where(and(eq(likes.userId, sql.placeholder('userId')), inJsonList(db, likes.lectureId, sql.placeholder('ids')))),
);
const progressQuery = preparedStatement('progress_in_list', (db: Db) =>
  db
    .select()
    .from(watchProgress)
    .where(
      and(
        eq(watchProgress.userId, sql.placeholder('userId')),
        inJsonList(db, watchProgress.lectureId, sql.placeholder('ids')),
      ),
    ),
);
const captionsQuery = preparedStatement('captions_in_list', (db: Db) =>
  db
    .select({ id: captions.id, lectureId: captions.lectureId, language: captions.language, label: captions.label })
    .from(captions)
    .where(inJsonList(db, captions.lectureId, sql.placeholder('ids')))
    .orderBy(asc(captions.label)),
);

/** Whether the user liked each lecture and where they got to in it: two indexed queries for the whole list. */
async function personalState(db: Db, userId: string, lectureIds: string[]) {
  const state = new Map<string, PersonalState>(lectureIds.map((id) => [id, { liked: false, progress: null }]));
  if (lectureIds.length === 0) return state;
  const ids = JSON.stringify(lectureIds);
  // Three independent reads: on PostgreSQL they overlap on the pool's connections instead of taking turns.
  const [liked, progress, coverage] = await Promise.all([
    likedQuery(db, { userId, ids }),
    progressQuery(db, { userId, ids }),
    coverageOfLectures(db, userId, lectureIds),
  ]);
  for (const row of liked) {
    const entry = state.get(row.lectureId);
    if (entry) entry.liked = true;
  }
  for (const row of progress) {
    const entry = state.get(row.lectureId);
    if (entry)
      entry.progress = { position: row.positionSeconds, duration: row.durationSeconds, completed: row.completed };
  }
  for (const [lectureId, covered] of coverage) {
    const entry = state.get(lectureId);
    if (entry) entry.coverage = covered;
  }
  return state;
}

/** Videos of these lectures, in one query. */
async function videosOf(db: Db, rows: Lecture[]): Promise<Map<string, Video>> {
  const ids = [...new Set(rows.map((row) => row.videoId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const found = await videosQuery(db, { ids: JSON.stringify(ids) });
  return new Map(found.map((video) => [video.id, video]));
}

/** The captions of these lectures (without their text), by lecture, in one query. */
export async function captionsOf(db: Db, lectureIds: string[]) {
  const byLecture = new Map<string, CaptionInfo[]>();
  if (lectureIds.length === 0) return byLecture;
  const rows = await captionsQuery(db, { ids: JSON.stringify(lectureIds) });
  for (const row of rows) byLecture.set(row.lectureId, [...(byLecture.get(row.lectureId) ?? []), row]);
  return byLecture;
}
export type CaptionInfo = Pick<Caption, 'id' | 'lectureId' | 'language' | 'label'>;

/** What one user sees of each lecture: its video and captions, whether they liked it and where they got to. */
export async function lectureViews(db: Db, user: Pick<User, 'id'>, rows: Lecture[]) {
  const ids = rows.map((row) => row.id);
  const [videoById, mine, captionsByLecture] = await Promise.all([
    videosOf(db, rows),
    personalState(db, user.id, ids),
    captionsOf(db, ids),
  ]);
  return rows.map((lecture) => ({
    lecture,
    video: videoById.get(lecture.videoId ?? ''),
    mine: mine.get(lecture.id),
    captions: captionsByLecture.get(lecture.id),
  }));
}

export async function captionOfLecture(db: Db, lectureId: string, captionId: string) {
  const [caption] = await db
    .select()
    .from(captions)
    .where(and(eq(captions.lectureId, lectureId), eq(captions.id, captionId)))
    .limit(1);
  return caption;
}

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
    // One caption change per lecture at a time, so two languages added at once cannot pass the limit together.
    await forUpdate(tx, tx.select({ id: lectures.id }).from(lectures).where(eq(lectures.id, values.lectureId)));
    const [existing] = await tx
      .select({ id: captions.id })
      .from(captions)
      .where(and(eq(captions.lectureId, values.lectureId), eq(captions.language, values.language)))
      .limit(1);
    if (existing) {
      const [row] = await tx
        .update(captions)
        .set({ label: values.label, vtt: values.vtt, updatedAt: Date.now() })
        .where(eq(captions.id, existing.id))
        .returning();
      await emit(tx, { type: 'caption-saved', caption: row as Caption });
      return { row: row as Caption, created: false };
    }
    const [{ n }] = await tx.select({ n: count() }).from(captions).where(eq(captions.lectureId, values.lectureId));
    if (n >= maxPerLecture) return undefined;
    const [row] = await tx
      .insert(captions)
      .values({ id: newId(), ...values })
      .returning();
    await emit(tx, { type: 'caption-saved', caption: row as Caption });
    return { row: row as Caption, created: true };
  });
}

export async function deleteCaption(db: Db, captionId: string) {
  await db.delete(captions).where(eq(captions.id, captionId));
}

export const lecturesOfCourse = async (db: Db, courseId: string) => lecturesOfCourseQuery(db, { courseId });

export async function videoById(db: Db, videoId: string) {
  const [video] = await db.select().from(videos).where(eq(videos.id, videoId)).limit(1);
  return video;
}

/** The (first) topic that shows a video, if any. */
export async function lectureOfVideo(db: Db, videoId: string) {
  const [lecture] = await db.select().from(lectures).where(eq(lectures.videoId, videoId)).limit(1);
  return lecture;
}

export async function videoOwner(db: Db, videoId: string) {
  const [video] = await db
    .select({ id: videos.id, ownerId: videos.ownerId })
    .from(videos)
    .where(eq(videos.id, videoId))
    .limit(1);
  return video;
}

/** A new lecture (what follows, search entries and students told, is wired in src/wiring.ts). */
export async function createLecture(
  db: Db,
  values: { courseId: string; nameOfTopic: string; videoId: string | null; description?: string },
) {
  return transaction(db, async (tx) => {
    const [lecture] = await tx
      .insert(lectures)
      .values({ id: newId(), ...values })
      .returning();
    const { id } = lecture as Lecture;
    const parts = { title: true, chapters: Boolean(values.description), video: values.videoId !== null };
    await emit(tx, { type: 'lecture-saved', lectureId: id, created: true, ...parts });
    return lecture as Lecture;
  });
}

/** Changes a lecture; the event names the parts that changed (a new video changes its chapters' end too). */
export async function updateLecture(
  db: Db,
  id: string,
  values: {
    nameOfTopic?: string;
    videoId?: string | null;
    description?: string;
    chapters?: string | null;
    dueAt?: number | null;
    remindedAt?: null;
    noSkip?: boolean;
  },
) {
  return transaction(db, async (tx) => {
    const [lecture] = await tx.update(lectures).set(values).where(eq(lectures.id, id)).returning();
    await emit(tx, {
      type: 'lecture-saved',
      lectureId: id,
      created: false,
      title: values.nameOfTopic !== undefined,
      chapters: values.description !== undefined || values.chapters !== undefined,
      video: values.videoId !== undefined,
    });
    return lecture as Lecture;
  });
}

export async function deleteLecture(db: Db, id: string) {
  await db.delete(lectures).where(eq(lectures.id, id));
}

/* Views and likes, prepared once per database: a player counts a view each time a lecture opens. */
const markView = preparedStatement('mark_view', (db: Db) =>
  db
    .insert(viewMarks)
    .values({
      lectureId: sql.placeholder('lectureId'),
      userId: sql.placeholder('userId'),
      countedAt: sql.placeholder('now'),
    })
    .onConflictDoUpdate({
      target: [viewMarks.lectureId, viewMarks.userId],
      set: { countedAt: sql`${sql.placeholder('now')}` },
      setWhere: sql`${viewMarks.countedAt} <= ${sql.placeholder('windowStart')}`,
    })
    .returning({ lectureId: viewMarks.lectureId }),
);
const addView = preparedStatement('add_view', (db: Db) =>
  db
    .update(lectures)
    .set({ noOfViews: sql`${lectures.noOfViews} + 1` })
    .where(eq(lectures.id, sql.placeholder('lectureId')))
    .returning({ id: lectures.id }),
);
const insertLike = preparedStatement('insert_like', (db: Db) =>
  db
    .insert(likes)
    .values({ lectureId: sql.placeholder('lectureId'), userId: sql.placeholder('userId') })
    .onConflictDoNothing()
    .returning({ lectureId: likes.lectureId }),
);
const deleteLike = preparedStatement('delete_like', (db: Db) =>
  db
    .delete(likes)
    .where(and(eq(likes.lectureId, sql.placeholder('lectureId')), eq(likes.userId, sql.placeholder('userId'))))
    .returning({ lectureId: likes.lectureId }),
);
const changeLikes = preparedStatement('change_likes', (db: Db) =>
  db
    .update(lectures)
    .set({ noOfLikes: greatest(db, 0, sql`${lectures.noOfLikes} + ${sql.placeholder('change')}`) })
    .where(eq(lectures.id, sql.placeholder('lectureId')))
    .returning({ id: lectures.id }),
);
const counts = preparedStatement('lecture_counts', (db: Db) =>
  db
    .select({ noOfViews: lectures.noOfViews, noOfLikes: lectures.noOfLikes })
    .from(lectures)
    .where(eq(lectures.id, sql.placeholder('lectureId')))
    .limit(1),
);

const countsOf = async (db: Db, lectureId: string) =>
  (await counts(db, { lectureId }))[0] ?? { noOfViews: 0, noOfLikes: 0 };

/**
 * PostgreSQL counts a view in one statement (data-modifying CTEs see one snapshot and commit together): the mark,
 * the count and the answer in one round trip instead of BEGIN, two writes, COMMIT and a read.
 */
async function countViewAtOnce(db: Db, lectureId: string, userId: string, now: number) {
  const query = sql`with mark as (
      insert into ${viewMarks} (lecture_id, user_id, counted_at) values (${lectureId}, ${userId}, ${now})
      on conflict (lecture_id, user_id) do update set counted_at = excluded.counted_at
      where ${viewMarks}.counted_at <= ${now - VIEW_WINDOW_MS}
      returning lecture_id
    ), bump as (
      update ${lectures} set no_of_views = no_of_views + 1
      where id = ${lectureId} and exists (select 1 from mark)
      returning no_of_views
    )
    select coalesce((select no_of_views from bump), (select no_of_views from ${lectures} where id = ${lectureId}), 0)
      as "noOfViews", exists (select 1 from mark) as counted`;
  const result = (await (db as unknown as { execute(query: SQL): Promise<unknown> }).execute(query)) as
    | { noOfViews: number; counted: boolean }[]
    | { rows: { noOfViews: number; counted: boolean }[] };
  const [row] = Array.isArray(result) ? result : result.rows;
  return { noOfViews: Number(row?.noOfViews ?? 0), counted: row?.counted === true };
}

/** Counts a view when this user's last counted view of the lecture is over an hour old (or there is none). */
export async function countView(db: Db, lectureId: string, userId: string, now = Date.now()) {
  if (engineOf(db) === 'postgres') return countViewAtOnce(db, lectureId, userId, now);
  const counted = await transaction(db, async (tx) => {
    const [mark] = await markView(tx, { lectureId, userId, now, windowStart: now - VIEW_WINDOW_MS });
    if (!mark) return false;
    await addView(tx, { lectureId });
    return true;
  });
  return { noOfViews: (await countsOf(db, lectureId)).noOfViews, counted };
}

/** Adds the user's like once; answers whether it was new and the count. */
export async function addLike(db: Db, lectureId: string, userId: string) {
  const added = await transaction(db, async (tx) => {
    if ((await insertLike(tx, { lectureId, userId })).length === 0) return false;
    await changeLikes(tx, { lectureId, change: 1 });
    return true;
  });
  return { added, noOfLikes: (await countsOf(db, lectureId)).noOfLikes };
}

export async function removeLike(db: Db, lectureId: string, userId: string) {
  await transaction(db, async (tx) => {
    if ((await deleteLike(tx, { lectureId, userId })).length > 0) await changeLikes(tx, { lectureId, change: -1 });
  });
  return { noOfLikes: (await countsOf(db, lectureId)).noOfLikes };
}
