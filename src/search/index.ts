import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { WebVTTParser } from 'webvtt-parser';
import { chaptersOfLecture } from '../contract/chapters';
import type { Db } from '../db/client';
import { engineOf } from '../db/dialect';
import { captions, lectures, type SEARCH_KINDS, searchEntries, slides, videos } from '../db/schema';
import { transaction } from '../db/transaction';
import { indexSlidesOfLecture } from './slides';
import { runSql } from './sql';

/**
 * The write side of search: what goes into `search_entries`, the one table both engines' full-text indexes read
 * (SQLite: the FTS5 table `search_fts`, kept in step by triggers; PostgreSQL: a GIN index on its tsvector; see the
 * search_index migrations). Every kind is written here, by a listener of the event that changes it (src/wiring.ts):
 * titles and comments as one row each, captions cut into cues (one row per cue with its start second), chapters
 * and slides as rows of their own `kind` with a `seconds`. Rows go with their lecture, caption or comment (cascades).
 */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** What each engine adds beside the declared schema (migrations-match.test.ts leaves them out of its comparison). */
export const ENGINE_SEARCH_OBJECTS = {
  /** The FTS5 table and its shadow tables. */
  sqliteTables: (name: string) => name === 'search_fts' || name.startsWith('search_fts_'),
  postgresIndexes: ['search_entries_fts'],
};

/** Longest text kept per entry: a cue or comment is short; a long one is cut (the text stays in its own table). */
const MAX_ENTRY_CHARS = 2_000;
/** Rows per INSERT: under PostgreSQL's 65,535 parameters. */
const BATCH = 500;

/** The cues of a WebVTT file as plain lines with their start second (tags like <v Ana> and <b> removed). */
export function cuesOf(vtt: string): { seconds: number; text: string }[] {
  const parsed = new WebVTTParser().parse(vtt, 'subtitles');
  const cues: { seconds: number; text: string }[] = [];
  for (const cue of parsed.cues) {
    const text = cue.text
      .replace(/<[^>]*>/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&nbsp;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) cues.push({ seconds: Math.max(0, cue.startTime), text: text.slice(0, MAX_ENTRY_CHARS) });
  }
  return cues;
}

async function insertEntries(db: Db, rows: (typeof searchEntries.$inferInsert)[]) {
  for (let start = 0; start < rows.length; start += BATCH) {
    await db.insert(searchEntries).values(rows.slice(start, start + BATCH));
  }
}

/** (Re)indexes a lecture's title. Run inside the transaction that saves it. */
export async function indexTitle(db: Db, lectureId: string) {
  await db.delete(searchEntries).where(and(eq(searchEntries.lectureId, lectureId), eq(searchEntries.kind, 'title')));
  await runSql(
    db,
    sql`insert into search_entries (course_id, lecture_id, kind, text)
    select course_id, id, 'title', name_of_topic from lectures where id = ${lectureId}`,
  );
}

/** Indexes a new comment. Run inside the transaction that saves it. */
export async function indexComment(db: Db, commentId: string) {
  await runSql(
    db,
    sql`insert into search_entries (course_id, lecture_id, kind, comment_id, text)
    select lectures.course_id, comments.lecture_id, 'comment', comments.id, comments.text
    from comments join lectures on lectures.id = comments.lecture_id where comments.id = ${commentId}`,
  );
}

/** (Re)indexes one caption file: its old cues go, its new ones come. Run inside the transaction that saves it. */
export async function indexCaption(db: Db, caption: { id: string; lectureId: string; vtt: string }) {
  await db.delete(searchEntries).where(eq(searchEntries.captionId, caption.id));
  const [lecture] = await db
    .select({ courseId: lectures.courseId })
    .from(lectures)
    .where(eq(lectures.id, caption.lectureId))
    .limit(1);
  if (!lecture) return;
  await insertEntries(
    db,
    cuesOf(caption.vtt).map((cue) => ({
      courseId: lecture.courseId,
      lectureId: caption.lectureId,
      kind: 'caption' as const,
      captionId: caption.id,
      seconds: cue.seconds,
      text: cue.text,
    })),
  );
}

/**
 * (Re)indexes a lecture's description (one row) and its chapters (one row each, at its second), as they read now:
 * run inside the transaction that changes the description or the chapter list. Slides (issue 25) pass their titled
 * slides, which become chapters through the same merge (`chaptersOfLecture`).
 */
export async function indexChapters(db: Db, lectureId: string, slides: { seconds: number; title: string }[] = []) {
  await db
    .delete(searchEntries)
    .where(and(eq(searchEntries.lectureId, lectureId), inArray(searchEntries.kind, ['chapter', 'description'])));
  const [lecture] = await db
    .select({
      courseId: lectures.courseId,
      description: lectures.description,
      chapters: lectures.chapters,
      durationMs: videos.durationMs,
    })
    .from(lectures)
    .leftJoin(videos, eq(videos.id, lectures.videoId))
    .where(eq(lectures.id, lectureId))
    .limit(1);
  if (!lecture) return;
  const duration = lecture.durationMs === null ? undefined : lecture.durationMs / 1000;
  const rows: (typeof searchEntries.$inferInsert)[] = chaptersOfLecture(lecture, duration, slides).chapters.map(
    (chapter) => ({
      courseId: lecture.courseId,
      lectureId,
      kind: 'chapter' as const,
      seconds: chapter.seconds,
      text: chapter.title,
    }),
  );
  const description = lecture.description.trim();
  if (description) {
    rows.push({
      courseId: lecture.courseId,
      lectureId,
      kind: 'description',
      text: description.slice(0, MAX_ENTRY_CHARS),
    });
  }
  await insertEntries(db, rows);
}

/** Indexes the captions that have no entries yet (those saved before search existed); answers how many. */
export async function indexMissingCaptions(db: Db): Promise<number> {
  const missing = await db
    .select({ id: captions.id, lectureId: captions.lectureId, vtt: captions.vtt })
    .from(captions)
    .leftJoin(searchEntries, eq(searchEntries.captionId, captions.id))
    .where(isNull(searchEntries.id));
  const seen = new Set<string>();
  for (const caption of missing) {
    if (seen.has(caption.id)) continue;
    seen.add(caption.id);
    await transaction(db, (tx) => indexCaption(tx, caption));
  }
  return seen.size;
}

/**
 * Builds the whole index again from the lectures, comments, captions, chapters and slides (after a restore or a
 * move between engines, or if it was ever in doubt). Answers the number of entries.
 */
export async function rebuildSearchIndex(db: Db): Promise<number> {
  await transaction(db, async (tx) => {
    await tx.delete(searchEntries);
    await runSql(
      tx,
      sql`insert into search_entries (course_id, lecture_id, kind, text)
      select course_id, id, 'title', name_of_topic from lectures`,
    );
    await runSql(
      tx,
      sql`insert into search_entries (course_id, lecture_id, kind, comment_id, text)
      select lectures.course_id, comments.lecture_id, 'comment', comments.id, comments.text
      from comments join lectures on lectures.id = comments.lecture_id`,
    );
  });
  await indexMissingCaptions(db);
  const described = await db
    .select({ id: lectures.id })
    .from(lectures)
    .where(or(sql`${lectures.description} <> ''`, sql`${lectures.chapters} is not null`));
  for (const lecture of described) await transaction(db, (tx) => indexChapters(tx, lecture.id));
  const withSlides = await db
    .selectDistinct({ id: lectures.id })
    .from(lectures)
    .innerJoin(slides, eq(slides.videoId, lectures.videoId));
  for (const lecture of withSlides) await transaction(db, (tx) => indexSlidesOfLecture(tx, lecture.id));
  // SQLite: the FTS5 index rebuilt from its content table (its triggers kept it in step; this makes sure).
  if (engineOf(db) === 'sqlite') await runSql(db, sql`insert into search_fts (search_fts) values ('rebuild')`);
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(searchEntries);
  return Number(row?.n ?? 0);
}

/** Entries of a lecture by kind (tests and tools). */
export async function entriesOfLecture(db: Db, lectureId: string, kind?: SearchKind) {
  return db
    .select()
    .from(searchEntries)
    .where(
      kind
        ? and(eq(searchEntries.lectureId, lectureId), eq(searchEntries.kind, kind))
        : eq(searchEntries.lectureId, lectureId),
    );
}
