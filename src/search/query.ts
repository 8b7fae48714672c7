import { sql } from 'drizzle-orm';
import { LIMITS } from '../contract/limits';
import { slideThumbnailUrl } from '../contract/slides';
import type { Db } from '../db/client';
import { engineOf, greatest, inJsonList } from '../db/dialect';
import { courseIdsOf } from '../db/queries/courses';
import type { SearchKind } from './index';
import { runSql } from './sql';

/**
 * The read side of search: one function for both engines. The person's words are cut into tokens here (letters
 * and digits only), so no FTS syntax (quotes, `*`, NEAR, `-`, parentheses, `:`, `^`) ever reaches the engine: each
 * token is a quoted term, the last one a prefix (typing "photosyn" finds "photosynthesis"). The engine's index finds
 * the matches (FTS5 MATCH, tsvector @@ tsquery); both rank them with the same BM25 (bm25Score), weighing a title
 * above a description above a caption cue or comment.
 */
export const SEARCH_LIMITS = {
  /** Characters of a query. */
  queryMax: LIMITS.searchQueryMax,
  /** Words of a query that are used (the rest are ignored). */
  tokensMax: 8,
  /** Characters of one word. */
  tokenMax: 40,
  /** Hits answered. */
  hits: 50,
  /** Hits of one lecture answered (the rest of its cues are the same lecture). */
  perLecture: 5,
  /** Rows read from the index before the per-lecture cap. */
  candidates: 400,
  /** Matches ranked, newest first (all of them when these leave fewer than `hits` of the user's). */
  ranked: 4000,
  /** Characters of a snippet around the first match. */
  snippet: 160,
};

/** How much a kind of match weighs: a word in the title says more than one said in passing. */
const WEIGHT: Record<SearchKind, number> = { title: 4, chapter: 3, description: 2, slide: 2, caption: 1, comment: 1 };
const weightSql = sql.raw(
  `(case se.kind ${Object.entries(WEIGHT)
    .map(([kind, weight]) => `when '${kind}' then ${weight}.0`)
    .join(' ')} else 1.0 end)`,
);

/** Letters and digits, without case or accents: what both engines' tokenizers compare. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Words too common to tell lectures apart (PostgreSQL's English configuration drops them too): left out of a query
 * that has other words, unless typed last (a prefix: "the" may be the start of "theorem"). Without this, "the cell"
 * would read every cue that says "the".
 */
const STOPWORDS = new Set(
  'a an and are as at be been but by do does for from had has have he her his i if in into is it its me my no not of on or our she so than that the their them then there these they this to was we were what when where which who will with you your'.split(
    ' ',
  ),
);

/** The query's words, folded, deduplicated and capped; empty when it has no letters or digits. */
export function tokensOf(query: string): string[] {
  const words = [...new Set((fold(query).match(WORD) ?? []).map((word) => word.slice(0, SEARCH_LIMITS.tokenMax)))];
  const kept = words.filter((word, i) => i === words.length - 1 || !STOPWORDS.has(word));
  return kept.slice(-SEARCH_LIMITS.tokensMax);
}

/** FTS5's MATCH expression: every token a quoted string (tokens hold only letters and digits), the last a prefix. */
export function sqliteMatch(tokens: string[]): string {
  return tokens.map((token, i) => `"${token}"${i === tokens.length - 1 ? '*' : ''}`).join(' ');
}

/** PostgreSQL's to_tsquery text: the tokens ANDed, the last a prefix. */
export function postgresQuery(tokens: string[]): string {
  return tokens.map((token, i) => `${token}${i === tokens.length - 1 ? ':*' : ''}`).join(' & ');
}

/** `se.id` is one of these integers (PostgreSQL's JSON list is text, and the ids are bigint). */
const idIn = (db: Db, ids: number[]) =>
  engineOf(db) === 'postgres'
    ? sql`se.id in (select cast(jsonb_array_elements_text(cast(${JSON.stringify(ids)} as text)::jsonb) as bigint))`
    : sql`se.id in (select value from json_each(${JSON.stringify(ids)}))`;

type Ranked = { id: number | string; lecture_id: string; score: number };

type Row = {
  id: number | string;
  lecture_id: string;
  course_id: string;
  kind: SearchKind;
  seconds: number | null;
  slide_id: string | null;
  text: string;
  lecture_title: string;
  course_name: string;
};

export type SearchHit = {
  lectureId: string;
  courseId: string;
  kind: SearchKind;
  snippet: string;
  /** Where the query's words are in `snippet`: [start, end) in UTF-16 code units, for the web to mark. */
  highlights: [number, number][];
  seconds?: number;
  /** A slide's thumbnail (kind `slide`). */
  thumbnail?: string;
  lectureTitle: string;
  courseName: string;
};

/** Whether a word of the text is one of the query's (the same word, a longer form of it, or the same stem). */
function matches(word: string, tokens: string[]) {
  return tokens.some((token) => {
    let common = 0;
    while (common < word.length && common < token.length && word[common] === token[common]) common++;
    return common >= Math.min(token.length, Math.max(4, token.length - 3));
  });
}

/** The snippet: the text, or a window of it around the first matching word, with where the words are. */
export function snippetOf(text: string, tokens: string[]): { snippet: string; highlights: [number, number][] } {
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, word: m[0] }));
  const hit = words.filter((w) => matches(fold(w.word), tokens));
  let from = 0;
  let to = text.length;
  if (text.length > SEARCH_LIMITS.snippet) {
    const first = hit[0]?.start ?? 0;
    from = Math.max(0, first - Math.floor(SEARCH_LIMITS.snippet / 3));
    to = Math.min(text.length, from + SEARCH_LIMITS.snippet);
    // Whole words at both ends.
    while (from > 0 && /[\p{L}\p{N}]/u.test(text[from - 1] ?? '')) from++;
    while (to < text.length && /[\p{L}\p{N}]/u.test(text[to] ?? '')) to--;
  }
  const body = text.slice(from, to);
  const lead = body.length - body.trimStart().length;
  const prefix = from > 0 ? '…' : '';
  const snippet = `${prefix}${body.trim()}${to < text.length ? '…' : ''}`;
  const shift = prefix.length - from - lead;
  const highlights = hit
    .filter((w) => w.start >= from && w.end <= to)
    .map((w) => [w.start + shift, w.end + shift] as [number, number]);
  return { snippet, highlights };
}

/**
 * BM25 of an entry, the same on both engines: per query word, its count in the text (at least 1: the index matched
 * it, perhaps as another form of the word) through BM25's saturation and length normalisation (k1 = 1.2, b = 0.75,
 * length in characters over a typical cue's), times the kind's weight. BM25's IDF factor is left out: every hit of
 * an all-words query holds every word, so it is the same for all of them and does not change the order, while
 * SQLite's bm25() computes it by reading every row of each word (70 ms for two common words over 410,000 cues).
 */
function bm25Score(db: Db, tokens: string[]) {
  const K1 = 1.2;
  const B = 0.75;
  const TYPICAL_LENGTH = 60;
  const length = sql`(length(se.text) * 1.0 / ${sql.raw(String(TYPICAL_LENGTH))})`;
  const terms = tokens.map((token) => {
    const count = sql`((length(lower(se.text)) - length(replace(lower(se.text), ${token}, ''))) / ${sql.raw(String(token.length))})`;
    const tf = greatest(db, 1, count);
    return sql`(${tf} * ${sql.raw(String(K1 + 1))} / (${tf} + ${sql.raw(String(K1))} * (${sql.raw(String(1 - B))} + ${sql.raw(String(B))} * ${length})))`;
  });
  return sql`(${sql.join(terms, sql` + `)}) * ${weightSql}`;
}

/**
 * The hits for a user: only in the classes of their class list (`courseIdsOf`: those they teach or are enrolled in),
 * in one class when `courseId` is given (the caller checked it is readable). Two steps: the index ranks the entries
 * (ids and scores only), then the few answered are read with their lecture and class. Grouped by lecture, the
 * lecture of the best hit first; at most `perLecture` hits of one lecture and `hits` in all.
 */
export async function search(
  db: Db,
  user: { id: string; role: string },
  tokens: string[],
  courseId?: string,
): Promise<{ hits: SearchHit[]; more: boolean }> {
  const mine = await courseIdsOf(db, user);
  const scope = courseId ? mine.filter((id) => id === courseId) : mine;
  if (tokens.length === 0 || scope.length === 0) return { hits: [], more: false };
  const inScope = inJsonList(db, sql`se.course_id`, JSON.stringify(scope));
  const score = bm25Score(db, tokens);
  const rank = (limit: number) =>
    engineOf(db) === 'postgres'
      ? runSql<Ranked>(
          db,
          // Materialised: the matches come from the GIN index, never from walking the primary key newest first
          // and computing every row's tsvector (what the planner may pick for `order by id desc limit`).
          sql`with m as materialized (select se.id from search_entries se
              where to_tsvector('english', se.text) @@ to_tsquery('english', ${postgresQuery(tokens)})),
            f as (select id from m order by id desc limit ${limit})
            select se.id, se.lecture_id, ${score} as score
            from f join search_entries se on se.id = f.id
            where ${inScope} order by score desc, se.id desc limit ${SEARCH_LIMITS.candidates}`,
        )
      : runSql<Ranked>(
          db,
          sql`with f as (select rowid as id from search_fts
              where search_fts match ${sqliteMatch(tokens)} order by rowid desc limit ${limit})
            select se.id, se.lecture_id, ${score} as score
            from f join search_entries se on se.id = f.id
            where ${inScope} order by score desc, se.id desc limit ${SEARCH_LIMITS.candidates}`,
        );
  // The newest `ranked` matches are ranked (a word said in 18,000 cues would cost 100 ms to rank in full); when
  // that leaves too few of the user's own, all of them are.
  let ranked = await rank(SEARCH_LIMITS.ranked);
  if (ranked.length < SEARCH_LIMITS.hits) {
    // Were there more matches than were ranked? (ids only: cheap.)
    const [{ n } = { n: 0 }] = await runSql<{ n: number }>(
      db,
      engineOf(db) === 'postgres'
        ? sql`select count(*) as n from (select 1 from search_entries se
            where to_tsvector('english', se.text) @@ to_tsquery('english', ${postgresQuery(tokens)})
            limit ${SEARCH_LIMITS.ranked}) as f`
        : sql`select count(*) as n from (select rowid from search_fts where search_fts match ${sqliteMatch(tokens)}
            limit ${SEARCH_LIMITS.ranked})`,
    );
    if (Number(n) >= SEARCH_LIMITS.ranked) ranked = await rank(Number.MAX_SAFE_INTEGER);
  }
  // Group by lecture, in the order of each lecture's best hit; keep what will be answered.
  const byLecture = new Map<string, Ranked[]>();
  for (const row of ranked) {
    const group = byLecture.get(row.lecture_id) ?? [];
    if (group.length < SEARCH_LIMITS.perLecture) group.push(row);
    byLecture.set(row.lecture_id, group);
  }
  const chosen = [...byLecture.values()].flat();
  const answered = chosen.slice(0, SEARCH_LIMITS.hits);
  const more = chosen.length > answered.length || ranked.length >= SEARCH_LIMITS.candidates;
  if (answered.length === 0) return { hits: [], more: false };
  // The details of the answered entries, with their lecture and class: one query. Read again under the same rule.
  const details = await runSql<Row>(
    db,
    sql`select se.id, se.lecture_id, se.course_id, se.kind, se.seconds, se.slide_id, se.text, l.name_of_topic as lecture_title,
        c.course_name as course_name
      from search_entries se join lectures l on l.id = se.lecture_id join courses c on c.id = se.course_id
      where ${idIn(
        db,
        answered.map((row) => Number(row.id)),
      )} and ${inScope}`,
  );
  const byId = new Map(details.map((row) => [Number(row.id), row]));
  const hits: SearchHit[] = [];
  for (const { id } of answered) {
    const row = byId.get(Number(id));
    if (!row) continue; // Deleted between the two reads.
    hits.push({
      lectureId: row.lecture_id,
      courseId: row.course_id,
      kind: row.kind,
      ...snippetOf(row.text, tokens),
      ...(row.seconds === null || row.seconds === undefined ? {} : { seconds: Number(row.seconds) }),
      ...(row.slide_id ? { thumbnail: slideThumbnailUrl(row.lecture_id, row.slide_id) } : {}),
      lectureTitle: row.lecture_title,
      courseName: row.course_name,
    });
  }
  return { hits, more };
}
