import { type SQL, sql } from 'drizzle-orm';
import { isMemberOf } from '../auth/access';
import type { Db } from '../db/client';
import { engineOf } from '../db/dialect';
import type { SearchKind } from './index';
import { runSql } from './sql';

/**
 * The read side of search: one function for both engines. The person's words are cut into tokens here (letters
 * and digits only), so no FTS syntax (quotes, `*`, NEAR, `-`, parentheses, `:`, `^`) ever reaches the engine: each
 * token is a quoted term, the last one a prefix (typing "photosyn" finds "photosynthesis"). SQLite ranks by bm25,
 * PostgreSQL by ts_rank; both weigh a title above a description above a caption cue or comment.
 */
export const SEARCH_LIMITS = {
  /** Characters of a query. */
  queryMax: 200,
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
  /** Characters of a snippet around the first match. */
  snippet: 160,
};

/** How much a kind of match weighs: a word in the title says more than one said in passing. */
const WEIGHT: Record<SearchKind, number> = { title: 4, chapter: 3, description: 2, caption: 1, comment: 1 };
const weightSql = sql.raw(
  `(case se.kind ${Object.entries(WEIGHT)
    .map(([kind, weight]) => `when '${kind}' then ${weight}.0`)
    .join(' ')} else 1.0 end)`,
);

/** Letters and digits, without case or accents: what both engines' tokenizers compare. */
const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const WORD = /[\p{L}\p{N}]+/gu;

/** The query's words, folded, deduplicated and capped; empty when it has no letters or digits. */
export function tokensOf(query: string): string[] {
  const words = fold(query).match(WORD) ?? [];
  return [...new Set(words.map((word) => word.slice(0, SEARCH_LIMITS.tokenMax)))].slice(0, SEARCH_LIMITS.tokensMax);
}

/** FTS5's MATCH expression: every token a quoted string (tokens hold only letters and digits), the last a prefix. */
export function sqliteMatch(tokens: string[]): string {
  return tokens.map((token, i) => `"${token}"${i === tokens.length - 1 ? '*' : ''}`).join(' ');
}

/** PostgreSQL's to_tsquery text: the tokens ANDed, the last a prefix. */
export function postgresQuery(tokens: string[]): string {
  return tokens.map((token, i) => `${token}${i === tokens.length - 1 ? ':*' : ''}`).join(' & ');
}

type Row = {
  lecture_id: string;
  course_id: string;
  kind: SearchKind;
  seconds: number | null;
  text: string;
  lecture_title: string;
  course_name: string;
  score: number;
};

export type SearchHit = {
  lectureId: string;
  courseId: string;
  kind: SearchKind;
  snippet: string;
  /** Where the query's words are in `snippet`: [start, end) in UTF-16 code units, for the web to mark. */
  highlights: [number, number][];
  seconds?: number;
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
 * The hits for a user: only in classes they teach or are enrolled in (the same rule as the class list,
 * `isMemberOf`), in one class when `courseId` is given (the caller checked it is readable). Grouped by lecture, the
 * lecture of the best hit first; at most `perLecture` hits of one lecture and `hits` in all.
 */
export async function search(
  db: Db,
  user: { id: string },
  tokens: string[],
  courseId?: string,
): Promise<{ hits: SearchHit[]; more: boolean }> {
  if (tokens.length === 0) return { hits: [], more: false };
  const inCourse: SQL = courseId ? sql`and se.course_id = ${courseId}` : sql``;
  const member = isMemberOf(sql`se.course_id`, user.id);
  const select = sql`se.lecture_id, se.course_id, se.kind, se.seconds, se.text, l.name_of_topic as lecture_title,
    c.course_name as course_name`;
  const rows =
    engineOf(db) === 'postgres'
      ? await runSql<Row>(
          db,
          sql`select ${select},
              ts_rank(to_tsvector('english', se.text), q.query) * ${weightSql} as score
            from search_entries se, to_tsquery('english', ${postgresQuery(tokens)}) as q(query),
              lectures l, courses c
            where to_tsvector('english', se.text) @@ q.query and l.id = se.lecture_id and c.id = se.course_id
              ${inCourse} and ${member}
            order by score desc limit ${SEARCH_LIMITS.candidates}`,
        )
      : await runSql<Row>(
          db,
          sql`select ${select}, -bm25(search_fts) * ${weightSql} as score
            from search_fts join search_entries se on se.id = search_fts.rowid
              join lectures l on l.id = se.lecture_id join courses c on c.id = se.course_id
            where search_fts match ${sqliteMatch(tokens)} ${inCourse} and ${member}
            order by score desc limit ${SEARCH_LIMITS.candidates}`,
        );
  // Group by lecture, in the order of each lecture's best hit.
  const byLecture = new Map<string, Row[]>();
  for (const row of rows) {
    const group = byLecture.get(row.lecture_id) ?? [];
    if (group.length < SEARCH_LIMITS.perLecture) group.push(row);
    byLecture.set(row.lecture_id, group);
  }
  const hits: SearchHit[] = [];
  let more = rows.length > 0 && rows.length >= SEARCH_LIMITS.candidates;
  for (const group of byLecture.values()) {
    for (const row of group) {
      if (hits.length >= SEARCH_LIMITS.hits) {
        more = true;
        break;
      }
      hits.push({
        lectureId: row.lecture_id,
        courseId: row.course_id,
        kind: row.kind,
        ...snippetOf(row.text, tokens),
        ...(row.seconds === null || row.seconds === undefined ? {} : { seconds: Number(row.seconds) }),
        lectureTitle: row.lecture_title,
        courseName: row.course_name,
      });
    }
  }
  return { hits, more };
}
