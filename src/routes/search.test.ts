import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sql } from 'drizzle-orm';
import { engineOf } from '../db/dialect';
import { searchEntries } from '../db/schema';
import { indexMissingCaptions, rebuildSearchIndex } from '../search/index';
import { SEARCH_LIMITS } from '../search/query';
import { runSql } from '../search/sql';
import { testEngine } from '../test/database';
import type { Account, Harness } from '../test/harness';
import { startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';

let h: Harness;
let teacher: Account;
let otherTeacher: Account;
let student: Account;
let outsider: Account;
let removed: Account;
let courseId: string;
let otherCourseId: string;
const ids: Record<string, string> = {};

const VTT = `WEBVTT

00:00:01.000 --> 00:00:04.000
Good morning, everyone.

00:01:05.500 --> 00:01:09.000
<v Ada>The mitochondria is the powerhouse of the cell.</v>

00:02:10.000 --> 00:02:14.000
Chlorophyll absorbs <b>light</b> energy.
`;

const captionForm = (text: string) => {
  const form = new FormData();
  form.append('file', new File([text], 'a.vtt'));
  form.append('language', 'en');
  form.append('label', 'English');
  return form;
};

async function lecture(as: Account, course: string, nameOfTopic: string) {
  const created = await h.api('POST', '/api/lectures', { as: as.token, body: { courseId: course, nameOfTopic } });
  if (created.status !== 201) throw new Error(`setup: lecture ${nameOfTopic} (${created.status}): ${created.text}`);
  return created.json._id as string;
}

const search = (as: Account, query: string, course?: string) =>
  h.api('GET', `/api/search?q=${encodeURIComponent(query)}${course ? `&courseId=${encodeURIComponent(course)}` : ''}`, {
    as: as.token,
  });

const entryCount = async () => Number((await h.deps.db.select({ n: sql<number>`count(*)` }).from(searchEntries))[0]?.n);

beforeAll(async () => {
  h = await startHarness();
  const cast = await classScenario(h, {
    names: { teacher: 'Sara Search', otherTeacher: 'Oren Other', student: 'Stella Student', outsider: 'Olga Out' },
    courseName: 'Biology',
    classmates: ['Remy Removed'],
  });
  ({ teacher, otherTeacher, student, outsider } = cast);
  removed = cast.classmates[0] as Account;
  courseId = cast.course?.id as string;
  ids.photosynthesis = await lecture(teacher, courseId, 'Photosynthesis basics');
  ids.cells = await lecture(teacher, courseId, 'Cell structure');
  const caption = await h.api('POST', `/api/lectures/${ids.cells}/captions`, {
    as: teacher.token,
    body: captionForm(VTT),
  });
  if (caption.status !== 201) throw new Error(`setup: captions (${caption.status}): ${caption.text}`);
  const comment = await h.api('POST', `/api/lectures/${ids.cells}/comments`, {
    as: student.token,
    body: { text: 'Is photosynthesis in the exam? Also: what about ribosomes?' },
  });
  if (comment.status !== 201) throw new Error(`setup: comment (${comment.status}): ${comment.text}`);
  ids.comment = comment.json._id;
  const other = await h.api('POST', '/api/courses', { as: otherTeacher.token, body: { courseName: 'Secret club' } });
  otherCourseId = other.json._id;
  ids.secret = await lecture(otherTeacher, otherCourseId, 'Zanzibar photosynthesis');
  const otherCaption = await h.api('POST', `/api/lectures/${ids.secret}/captions`, {
    as: otherTeacher.token,
    body: captionForm('WEBVTT\n\n00:00:03.000 --> 00:00:05.000\nThe powerhouse password is xylophone.\n'),
  });
  if (otherCaption.status !== 201) throw new Error(`setup: other captions (${otherCaption.status})`);
});
afterAll(() => h?.close());

describe(`search (${testEngine})`, () => {
  test('a phrase said in the captions is found with the kind caption and the second of its cue', async () => {
    const found = await search(student, 'powerhouse of the cell');
    expect(found.status).toBe(200);
    const hit = found.json.hits.find((one: { kind: string }) => one.kind === 'caption');
    expect(hit).toMatchObject({
      lectureId: ids.cells,
      courseId,
      kind: 'caption',
      seconds: 65.5,
      snippet: 'The mitochondria is the powerhouse of the cell.',
      lectureTitle: 'Cell structure',
      courseName: 'Biology',
    });
    // The words are marked by offsets in the plain snippet (no markup ever comes from the server).
    const marked = hit.highlights.map(([start, end]: [number, number]) => hit.snippet.slice(start, end));
    expect(marked).toEqual(expect.arrayContaining(['powerhouse', 'cell']));
    // Only this class's lecture: the other class's cue with "powerhouse" is not the student's.
    expect(found.json.hits.every((one: { courseId: string }) => one.courseId === courseId)).toBe(true);
  });

  test('titles and comments are found; a title match ranks above a comment-only match; stems and prefixes match', async () => {
    const found = await search(student, 'photosynthesis');
    expect(found.status).toBe(200);
    expect(found.json.hits.map((hit: { kind: string; lectureId: string }) => [hit.kind, hit.lectureId])).toEqual([
      ['title', ids.photosynthesis],
      ['comment', ids.cells],
    ]);
    expect(found.json.hits[1].seconds).toBeUndefined();
    // A prefix of the last word (typing) and another form of a word (porter / English stemming) match too.
    expect((await search(student, 'photosynth')).json.hits).toHaveLength(2);
    expect((await search(student, 'absorbing')).json.hits[0]).toMatchObject({ kind: 'caption', seconds: 130 });
    // Words in any order match.
    expect((await search(student, 'cell powerhouse')).json.hits[0]).toMatchObject({ seconds: 65.5 });
  });

  test('a renamed lecture is found by its new title only; the course filter narrows to one class', async () => {
    const renamed = await h.api('PATCH', `/api/lectures/${ids.photosynthesis}/update`, {
      as: teacher.token,
      body: { nameOfTopic: 'Light reactions' },
    });
    expect(renamed.status).toBe(200);
    expect((await search(student, 'light reactions')).json.hits[0]).toMatchObject({
      kind: 'title',
      lectureId: ids.photosynthesis,
    });
    expect((await search(student, 'photosynthesis')).json.hits.map((hit: { kind: string }) => hit.kind)).toEqual([
      'comment',
    ]);
    // The other teacher finds their own class's lecture, and with courseId only that class.
    const mine = await search(otherTeacher, 'photosynthesis', otherCourseId);
    expect(mine.json.hits.map((hit: { lectureId: string }) => hit.lectureId)).toEqual([ids.secret]);
    // A class the user is not in: the class's 404, as for any other route.
    const refused = await search(student, 'photosynthesis', otherCourseId);
    expect(refused.status).toBe(404);
    expect(refused.json.code).toBe('course_not_found');
  });

  test('an outsider and a student of another class find nothing, nor any word inside the class', async () => {
    for (const query of ['powerhouse', 'mitochondria', 'cell', 'ribosomes', 'Biology']) {
      const found = await search(outsider, query);
      expect(found.status).toBe(200);
      expect(found.json).toEqual({ hits: [], more: false });
    }
    // The other teacher finds only their own class's "powerhouse".
    const other = await search(otherTeacher, 'powerhouse');
    expect(other.json.hits.map((hit: { lectureId: string }) => hit.lectureId)).toEqual([ids.secret]);
    // And the class's student never finds the other class's words.
    expect((await search(student, 'xylophone')).json.hits).toEqual([]);
    expect((await search(student, 'zanzibar')).json.hits).toEqual([]);
  });

  test('a student removed from the class finds nothing of it any more', async () => {
    expect((await search(removed, 'mitochondria')).json.hits.length).toBeGreaterThan(0);
    const out = await h.api('DELETE', `/api/courses/${courseId}/students/${removed.user._id}`, { as: teacher.token });
    expect(out.status).toBe(200);
    expect((await search(removed, 'mitochondria')).json.hits).toEqual([]);
  });

  test('bad input gets a clear 400 (or valid results), never a 500, and a refused search changes nothing', async () => {
    const before = await entryCount();
    const long = await search(student, 'a'.repeat(10_000));
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({ code: 'invalid_input', message: 'A search can be at most 200 characters.' });
    expect(long.json.fields.q).toBe('A search can be at most 200 characters.');
    const justOver = await search(student, 'b'.repeat(201));
    expect(justOver.status).toBe(400);
    for (const empty of ['', '   ', '"', '*', '-', '()', ':^', '"*-()']) {
      const answer = await search(student, empty);
      expect({ empty, status: answer.status }).toEqual({ empty, status: 400 });
      expect(answer.json.message).toMatch(/^Please (type what to search for|search for words or numbers)/);
    }
    const missing = await h.api('GET', '/api/search', { as: student.token });
    expect(missing.status).toBe(400);
    // FTS syntax inside words is only punctuation: the words are searched for, the syntax never reaches the engine.
    for (const query of [
      '"powerhouse',
      'powerhouse*',
      'NEAR(powerhouse cell)',
      '-powerhouse',
      'cell:powerhouse',
      '^cell',
      'powerhouse OR zebra',
      'power AND NOT cell',
      "cell'; drop table search_entries; --",
    ]) {
      const answer = await search(student, query);
      expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    }
    expect((await search(student, '"powerhouse" *cell*')).json.hits[0]).toMatchObject({ seconds: 65.5 });
    // NEAR is a word like any other here: no caption says it.
    expect((await search(student, 'NEAR(powerhouse cell)')).json.hits).toEqual([]);
    const badCourse = await h.api('GET', '/api/search?q=cell&courseId=..%2Fetc', { as: student.token });
    expect(badCourse.status).toBe(400);
    const signedOut = await h.api('GET', '/api/search?q=cell');
    expect(signedOut.status).toBe(401);
    expect(await entryCount()).toBe(before);
  });

  test('a deleted comment, replaced captions and a deleted lecture are no longer found', async () => {
    expect((await search(student, 'ribosomes')).json.hits).toHaveLength(1);
    const gone = await h.api('DELETE', `/api/lectures/${ids.cells}/comments/${ids.comment}`, { as: student.token });
    expect(gone.status).toBe(200);
    expect((await search(student, 'ribosomes')).json.hits).toEqual([]);

    const replaced = await h.api('POST', `/api/lectures/${ids.cells}/captions`, {
      as: teacher.token,
      body: captionForm('WEBVTT\n\n00:00:42.000 --> 00:00:44.000\nGolgi apparatus packages proteins.\n'),
    });
    expect(replaced.status).toBe(200);
    expect((await search(student, 'mitochondria')).json.hits).toEqual([]);
    expect((await search(student, 'golgi')).json.hits[0]).toMatchObject({ kind: 'caption', seconds: 42 });

    const deleted = await h.api('DELETE', `/api/lectures/${ids.cells}`, { as: teacher.token });
    expect(deleted.status).toBe(200);
    expect((await search(student, 'golgi')).json.hits).toEqual([]);
    expect((await search(student, 'cell structure')).json.hits).toEqual([]);
    // Nothing of the lecture is left in the index table.
    const left = await h.deps.db.select().from(searchEntries).where(sql`${searchEntries.lectureId} = ${ids.cells}`);
    expect(left).toEqual([]);
    if (engineOf(h.deps.db) === 'sqlite') {
      // FTS5's own check: the index and its content table agree after the cascades.
      await runSql(h.deps.db, sql`insert into search_fts (search_fts, rank) values ('integrity-check', 1)`);
    }
  });

  test('the index can be rebuilt from the tables and finds the same', async () => {
    const before = (await search(otherTeacher, 'powerhouse')).json;
    const entries = await entryCount();
    expect(await rebuildSearchIndex(h.deps.db)).toBe(entries);
    expect((await search(otherTeacher, 'powerhouse')).json).toEqual(before);
    // Captions saved before search existed (no cues in the index) are indexed at the next start.
    await h.deps.db.delete(searchEntries).where(sql`${searchEntries.kind} = 'caption'`);
    expect((await search(otherTeacher, 'powerhouse')).json.hits).toEqual([]);
    expect(await indexMissingCaptions(h.deps.db)).toBe(1);
    expect(await indexMissingCaptions(h.deps.db)).toBe(0);
    expect((await search(otherTeacher, 'powerhouse')).json).toEqual(before);
  });

  test("when the newest matches ranked are all someone else's, every match is ranked", async () => {
    const post = async (as: Account, lecture: string, text: string) =>
      expect((await h.api('POST', `/api/lectures/${lecture}/comments`, { as: as.token, body: { text } })).status).toBe(
        201,
      );
    await post(otherTeacher, ids.secret as string, 'A quokka in the secret club');
    for (let i = 0; i < 3; i++) await post(student, ids.photosynthesis as string, `Quokka number ${i}`);
    const ranked = SEARCH_LIMITS.ranked;
    SEARCH_LIMITS.ranked = 2;
    try {
      const found = await search(otherTeacher, 'quokka');
      expect(found.json.hits.map((hit: { lectureId: string }) => hit.lectureId)).toEqual([ids.secret]);
      expect((await search(student, 'quokka')).json.hits).toHaveLength(3);
    } finally {
      SEARCH_LIMITS.ranked = ranked;
    }
  });

  test('searches are rate-limited per person with a clear 429', async () => {
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push((await search(otherTeacher, `zanzibar ${i}`)).status);
    expect(answers).toContain(429);
    expect(answers.filter((status) => status === 500)).toEqual([]);
    const limited = await search(otherTeacher, 'zanzibar');
    expect(limited.status).toBe(429);
    expect(limited.json.message).toMatch(/^Too many searches\. Please try again in \d+ seconds\.$/);
    // Someone else is not held back.
    expect((await search(teacher, 'light')).status).toBe(200);
  });
});
