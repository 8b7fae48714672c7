import { describe, expect, test } from 'bun:test';
import { translate } from '../i18n/translate';
import type { ChapterProblem } from './chapter-rules';
import {
  chapterProblems,
  chaptersFromDescription,
  chaptersOfLecture,
  formatSeconds,
  mergeChapters,
  storedChapters,
  timedLines,
} from './chapters';
import { LIMITS } from './limits';

/** The problems as an English reader gets them (the catalogue's words; src/i18n). */
const english = (problems: ChapterProblem[]) => problems.map((problem) => translate('en', problem.key, problem.values));

describe('chapters from a description', () => {
  test('timed lines in every accepted form become chapters, other lines stay text', () => {
    const description = [
      'What we cover today:',
      '00:00 Introduction',
      '0:45 - Forces',
      '12:30 – Worked example',
      '59:59 | Questions',
      '1:02:03 Summary: what to remember',
      'Homework is due Friday.',
    ].join('\n');
    expect(chaptersFromDescription(description)).toEqual({
      chapters: [
        { seconds: 0, title: 'Introduction' },
        { seconds: 45, title: 'Forces' },
        { seconds: 750, title: 'Worked example' },
        { seconds: 3599, title: 'Questions' },
        { seconds: 3723, title: 'Summary: what to remember' },
      ],
      problems: [],
    });
  });

  test('Windows and old Mac line breaks, and minutes past 59 without hours', () => {
    expect(chaptersFromDescription('0:00 A\r\n10:00 B\r75:00 C').chapters).toEqual([
      { seconds: 0, title: 'A' },
      { seconds: 600, title: 'B' },
      { seconds: 4500, title: 'C' },
    ]);
  });

  test('one timed line (a mention, "see 12:30") is plain text: no chapters, no problem', () => {
    expect(chaptersFromDescription('12:30 is when the exam part starts')).toEqual({ chapters: [], problems: [] });
    expect(chaptersFromDescription('')).toEqual({ chapters: [], problems: [] });
    expect(chaptersFromDescription('No times here.\nNone at all.')).toEqual({ chapters: [], problems: [] });
  });

  test('a time inside a line, or glued to text, is not a chapter line', () => {
    expect(timedLines('See 0:00 Intro\n0:00Intro\n12:3 x\n1:2:03 y').lines).toEqual([]);
  });

  test('each rule broken is named with its line', () => {
    const cases: [string, string][] = [
      ['0:05 Intro\n1:00 Main', 'Line 1: the first chapter must start at 0:00.'],
      ['0:00 Intro\n2:00 Main\n1:00 Back', 'Line 3: chapters must be in order of time (1:00 comes after 2:00).'],
      ['0:00 Intro\n0:05 Too soon', 'Line 2: a chapter must be at least 10 seconds long (0:00 to 0:05).'],
      ['0:00 Intro\n1:00 Main\n1:00 Same', 'Line 3: chapters must be in order of time (1:00 comes after 1:00).'],
      ['0:00 Intro\n1:00', 'Line 2: please give the chapter a title.'],
      [
        `0:00 Intro\n1:00 ${'x'.repeat(LIMITS.chapterTitleMax + 1)}`,
        'Line 2: a chapter title can be at most 100 characters.',
      ],
      ['0:00 Intro\n1:75 Main', 'Line 2: 1:75 is not a valid time.'],
      ['0:00 Intro\n1:60:00 Main', 'Line 2: 1:60:00 is not a valid time.'],
    ];
    for (const [description, problem] of cases) {
      const parsed = chaptersFromDescription(description);
      expect({ description, problems: english(parsed.problems), chapters: parsed.chapters }).toEqual({
        description,
        problems: [problem],
        chapters: [],
      });
    }
  });

  test('past the end of the video when its length is known', () => {
    const parsed = chaptersFromDescription('0:00 Intro\n0:30 Main\n2:00 Late', 90);
    expect(english(parsed.problems)).toEqual(['Line 3: 2:00 is past the end of the video (1:30).']);
    expect(chaptersFromDescription('0:00 Intro\n0:30 Main', 90).problems).toEqual([]);
  });

  test('at most the chapter limit', () => {
    const lines = Array.from({ length: LIMITS.chaptersMax + 1 }, (_, i) => `${formatSeconds(i * 10)} Part ${i}`);
    expect(english(chaptersFromDescription(lines.join('\n')).problems)).toContain(
      `A lecture can have at most ${LIMITS.chaptersMax} chapters.`,
    );
    expect(english(chaptersFromDescription(lines.slice(1).join('\n')).problems)).toEqual([
      'Line 1: the first chapter must start at 0:00.',
    ]);
    expect(chaptersFromDescription(['0:00 Start', ...lines.slice(1, -1)].join('\n')).chapters).toHaveLength(
      LIMITS.chaptersMax,
    );
  });
});

describe('the chapter editor list and the merge', () => {
  test('the same rules, named by chapter number', () => {
    expect(
      english(
        chapterProblems(
          [
            { seconds: 0, title: 'A' },
            { seconds: 5, title: 'B' },
          ],
          undefined,
        ),
      ),
    ).toEqual(['Chapter 2: a chapter must be at least 10 seconds long (0:00 to 0:05).']);
    expect(chapterProblems([], undefined)).toEqual([]);
  });

  test('the editor overrides the description; an empty list means none; null falls back', () => {
    const description = [{ seconds: 0, title: 'From text' }];
    const editor = [{ seconds: 0, title: 'From editor' }];
    expect(mergeChapters({ editor, description })).toEqual({ chapters: editor, source: 'editor' });
    expect(mergeChapters({ editor: [], description })).toEqual({ chapters: [], source: 'editor' });
    expect(mergeChapters({ editor: null, description })).toEqual({ chapters: description, source: 'description' });
    expect(mergeChapters({ editor: null, description: [] })).toEqual({ chapters: [], source: 'none' });
  });

  test('titled slides join unless a chapter is within 10 s; untitled ones never', () => {
    const merged = mergeChapters({
      editor: null,
      description: [
        { seconds: 0, title: 'Intro' },
        { seconds: 60, title: 'Main' },
      ],
      slides: [
        { seconds: 65, title: 'Too close' },
        { seconds: 30, title: 'Slide title' },
        { seconds: 90, title: '' },
      ],
    });
    expect(merged.chapters).toEqual([
      { seconds: 0, title: 'Intro' },
      { seconds: 30, title: 'Slide title' },
      { seconds: 60, title: 'Main' },
    ]);
  });

  test('a lecture whose video got shorter shows only the chapters within it', () => {
    const lecture = { description: '0:00 A\n0:30 B\n5:00 C', chapters: null };
    expect(chaptersOfLecture(lecture, 60).chapters).toEqual([
      { seconds: 0, title: 'A' },
      { seconds: 30, title: 'B' },
    ]);
    expect(chaptersOfLecture(lecture).chapters).toHaveLength(3);
  });

  test('a stored list that does not read is no list', () => {
    expect(storedChapters(null)).toBeNull();
    expect(storedChapters('not json')).toBeNull();
    expect(storedChapters('{"a":1}')).toBeNull();
    expect(storedChapters('[{"seconds":0,"title":"A"},{"seconds":"x"}]')).toEqual([{ seconds: 0, title: 'A' }]);
  });

  test('times read as on YouTube', () => {
    expect([0, 9, 75, 600, 3723, 36000].map(formatSeconds)).toEqual([
      '0:00',
      '0:09',
      '1:15',
      '10:00',
      '1:02:03',
      '10:00:00',
    ]);
  });
});
