import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { entriesOfLecture, rebuildSearchIndex } from '../search/index';
import type { Account, Harness } from '../test/harness';
import { startHarness } from '../test/harness';
import { classScenario } from '../test/scenario';
import { expectRefused } from '../test/tables';

let h: Harness;
let teacher: Account;
let student: Account;
let outsider: Account;
let otherTeacher: Account;
let courseId: string;

const DESCRIPTION = [
  'Today: how plants make food.',
  '0:00 Introduction',
  '2:30 The Calvin cycle',
  '10:05 Worked example',
].join('\n');

async function lecture(body: Record<string, unknown>) {
  const created = await h.api('POST', '/api/lectures', { as: teacher.token, body: { courseId, ...body } });
  if (created.status !== 201) throw new Error(`setup: lecture (${created.status}): ${created.text}`);
  return created.json;
}

const search = (as: Account, query: string) =>
  h.api('GET', `/api/search?q=${encodeURIComponent(query)}`, { as: as.token });

beforeAll(async () => {
  h = await startHarness({}, { worker: false });
  const cast = await classScenario(h, {
    names: { teacher: 'Chloe Chapters', otherTeacher: 'Otto Other', student: 'Stan Student', outsider: 'Ola Outside' },
    courseName: 'Botany',
  });
  ({ teacher, student, outsider, otherTeacher } = cast);
  courseId = cast.course?.id as string;
});
afterAll(() => h.close());

describe('chapters from the description', () => {
  test('a lecture made with a description shows its chapters to the class', async () => {
    const made = await lecture({ nameOfTopic: 'Photosynthesis', description: DESCRIPTION });
    expect(made.description).toBe(DESCRIPTION);
    const expected = [
      { seconds: 0, title: 'Introduction' },
      { seconds: 150, title: 'The Calvin cycle' },
      { seconds: 605, title: 'Worked example' },
    ];
    expect(made.chapters).toEqual(expected);
    const asStudent = await h.api('GET', `/api/lectures/${made._id}`, { as: student.token });
    expect(asStudent.json.chapters).toEqual(expected);
    const list = await h.api('GET', `/api/lectures/course/${courseId}`, { as: student.token });
    expect(list.json.find((one: { _id: string }) => one._id === made._id).chapters).toEqual(expected);
    const chapters = await h.api('GET', `/api/lectures/${made._id}/chapters`, { as: student.token });
    expect(chapters.json).toEqual({ chapters: expected, source: 'description', editor: null });
  });

  test('a lecture without a description has none, and the old fields are all still there', async () => {
    const made = await lecture({ nameOfTopic: 'No chapters' });
    expect(made).toMatchObject({ description: '', chapters: [], nameOfTopic: 'No chapters', noOfViews: 0 });
  });

  test('editing the description changes the chapters and their search entries', async () => {
    const made = await lecture({ nameOfTopic: 'Respiration', description: '0:00 Start\n1:00 Glycolysis' });
    const edited = await h.api('PATCH', `/api/lectures/${made._id}/update`, {
      as: teacher.token,
      body: { description: '0:00 Start\n1:00 Krebs cycle\n3:00 Electron transport' },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.nameOfTopic).toBe('Respiration');
    expect(edited.json.chapters.map((chapter: { title: string }) => chapter.title)).toEqual([
      'Start',
      'Krebs cycle',
      'Electron transport',
    ]);
    const entries = await entriesOfLecture(h.db, made._id, 'chapter');
    expect(entries.map((entry) => [entry.seconds, entry.text]).sort()).toEqual([
      [0, 'Start'],
      [180, 'Electron transport'],
      [60, 'Krebs cycle'],
    ]);
    expect((await search(student, 'glycolysis')).json.hits).toEqual([]);
  });

  test('a description whose timed lines break the rules is refused with the line, and nothing changes', async () => {
    const made = await lecture({ nameOfTopic: 'Strict', description: DESCRIPTION });
    const cases = [
      ['0:10 Late start\n1:00 Main', 'Line 1: the first chapter must start at 0:00.'],
      ['0:00 A\n0:04 B', 'Line 2: a chapter must be at least 10 seconds long (0:00 to 0:04).'],
      ['0:00 A\n5:00 B\n4:00 C', 'Line 3: chapters must be in order of time (4:00 comes after 5:00).'],
    ];
    for (const [description, problem] of cases) {
      const refused = await expectRefused(h, {
        name: problem as string,
        as: teacher.token,
        method: 'PATCH',
        path: `/api/lectures/${made._id}/update`,
        body: { description },
        status: 400,
        field: 'description',
        code: 'bad_chapters',
      });
      expect(refused.json.fields.description).toBe(problem);
    }
    await expectRefused(h, {
      name: 'too long',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/lectures/${made._id}/update`,
      body: { description: 'x'.repeat(5001) },
      status: 400,
      field: 'description',
    });
    await expectRefused(h, {
      name: 'not text',
      as: teacher.token,
      method: 'PATCH',
      path: `/api/lectures/${made._id}/update`,
      body: { description: 42 },
      status: 400,
      field: 'description',
    });
    const refusedCreate = await h.api('POST', '/api/lectures', {
      as: teacher.token,
      body: { courseId, nameOfTopic: 'Bad', description: '0:30 A\n1:00 B' },
    });
    expect(refusedCreate.status).toBe(400);
    expect(refusedCreate.json.code).toBe('bad_chapters');
  });
});

describe('the chapter editor', () => {
  test('an explicit list overrides the description; null falls back to it', async () => {
    const made = await lecture({ nameOfTopic: 'Editor', description: DESCRIPTION });
    const list = [
      { seconds: 0, title: 'Welcome' },
      { seconds: 42.5, title: 'Light reactions' },
    ];
    const put = await h.api('PUT', `/api/lectures/${made._id}/chapters`, {
      as: teacher.token,
      body: { chapters: list },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ chapters: list, source: 'editor', editor: list });
    expect((await h.api('GET', `/api/lectures/${made._id}`, { as: student.token })).json.chapters).toEqual(list);

    const emptied = await h.api('PUT', `/api/lectures/${made._id}/chapters`, {
      as: teacher.token,
      body: { chapters: [] },
    });
    expect(emptied.json).toEqual({ chapters: [], source: 'editor', editor: [] });

    const cleared = await h.api('PUT', `/api/lectures/${made._id}/chapters`, {
      as: teacher.token,
      body: { chapters: null },
    });
    expect(cleared.json.source).toBe('description');
    expect(cleared.json.chapters.map((chapter: { title: string }) => chapter.title)).toEqual([
      'Introduction',
      'The Calvin cycle',
      'Worked example',
    ]);
  });

  test('bad lists are refused with the reason, and nothing changes', async () => {
    const made = await lecture({ nameOfTopic: 'Editor rules' });
    const path = `/api/lectures/${made._id}/chapters`;
    const bad: [string, unknown][] = [
      ['not a list', { chapters: 'x' }],
      ['no body field', {}],
      ['negative', { chapters: [{ seconds: -1, title: 'A' }] }],
      ['no title', { chapters: [{ seconds: 0, title: '  ' }] }],
      ['title too long', { chapters: [{ seconds: 0, title: 'x'.repeat(101) }] }],
      ['first not at zero', { chapters: [{ seconds: 5, title: 'A' }] }],
      [
        'too short',
        {
          chapters: [
            { seconds: 0, title: 'A' },
            { seconds: 3, title: 'B' },
          ],
        },
      ],
      ['too many', { chapters: Array.from({ length: 101 }, (_, i) => ({ seconds: i * 10, title: `P${i}` })) }],
      ['seconds as text', { chapters: [{ seconds: '0', title: 'A' }] }],
    ];
    for (const [name, body] of bad) {
      const refused = await expectRefused(h, { name, as: teacher.token, method: 'PUT', path, body, status: 400 });
      expect(refused.json.error.length).toBeGreaterThan(5);
    }
  });

  test('only the teacher of the class may edit: a student gets 403, others 404, and nothing changes', async () => {
    const made = await lecture({ nameOfTopic: 'Guarded', description: DESCRIPTION });
    const path = `/api/lectures/${made._id}/chapters`;
    const body = { chapters: [{ seconds: 0, title: 'Hijacked' }] };
    await expectRefused(h, { name: 'student', as: student.token, method: 'PUT', path, body, status: 403 });
    for (const [name, who] of [
      ['outsider', outsider],
      ['other teacher', otherTeacher],
    ] as const) {
      await expectRefused(h, {
        name,
        as: who.token,
        method: 'PUT',
        path,
        body,
        status: 404,
        code: 'lecture_not_found',
      });
    }
    await expectRefused(h, { name: 'anonymous', method: 'PUT', path, body, status: 401 });
    await expectRefused(h, {
      name: 'student edits the description',
      as: student.token,
      method: 'PATCH',
      path: `/api/lectures/${made._id}/update`,
      body: { description: '0:00 X\n1:00 Y' },
      status: 403,
    });
    // Reading them: the class only.
    expect((await h.api('GET', path, { as: outsider.token })).status).toBe(404);
    expect((await h.api('GET', path, { as: student.token })).json.chapters).toHaveLength(3);
  });
});

describe('chapters in search', () => {
  test('a chapter title is found as kind chapter at its second; an outsider finds nothing', async () => {
    const made = await lecture({
      nameOfTopic: 'Stomata',
      description: '0:00 Opening\n4:20 Guard cells and transpiration',
    });
    const found = await search(student, 'transpiration');
    expect(found.status).toBe(200);
    const hit = found.json.hits.find((one: { kind: string }) => one.kind === 'chapter');
    expect(hit).toMatchObject({ lectureId: made._id, courseId, kind: 'chapter', seconds: 260 });
    expect((await search(outsider, 'transpiration')).json.hits).toEqual([]);

    // The editor's list replaces the description's in the index.
    await h.api('PUT', `/api/lectures/${made._id}/chapters`, {
      as: teacher.token,
      body: {
        chapters: [
          { seconds: 0, title: 'Opening' },
          { seconds: 90, title: 'Xylem pressure' },
        ],
      },
    });
    const xylem = await search(student, 'xylem');
    expect(xylem.json.hits).toHaveLength(1);
    expect(xylem.json.hits[0]).toMatchObject({ lectureId: made._id, kind: 'chapter', seconds: 90 });
    // The description is still searched as a description; its chapter rows are gone.
    const again = await search(student, 'transpiration');
    expect(again.json.hits.map((one: { kind: string }) => one.kind)).toEqual(['description']);

    // Rebuilding the whole index (a restore, a move between engines) makes the same chapter and description rows.
    const before = (await entriesOfLecture(h.db, made._id)).map(({ kind, seconds, text }) => [kind, seconds, text]);
    await rebuildSearchIndex(h.db);
    const after = (await entriesOfLecture(h.db, made._id)).map(({ kind, seconds, text }) => [kind, seconds, text]);
    expect(after.sort()).toEqual(before.sort());
    expect(after.filter(([kind]) => kind === 'chapter')).toHaveLength(2);
  });
});
