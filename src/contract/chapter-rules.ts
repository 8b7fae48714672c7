/**
 * The chapter rules (docs/watching.md, "Chapters"), pure and without zod, so the web can run them while a teacher
 * types and on the lecture page without loading the schemas: the timed lines of a description, the problems of a
 * list, and how the sources (editor, description, titled slides) combine. `chapters.ts` holds the schemas.
 */
import { LIMITS } from './limits';

/** One chapter: where it starts (seconds from the start of the video) and its title. */
export type Chapter = { seconds: number; title: string };
/** Where a lecture's chapters come from: the editor's list, its description's timed lines, or nowhere. */
export type ChapterSource = 'editor' | 'description' | 'none';

/** A line that starts with a time: `m:ss`, `mm:ss` or `h:mm:ss`, then an optional separator, then the title. */
const TIMED_LINE = /^\s*(?:(\d{1,2}):)?(\d{1,3}):(\d{2})(?=\s|$)\s*(?:[-–—|:]\s+)?(.*)$/;

/** `75` → `1:15`, `3723` → `1:02:03`: how a time reads in messages and descriptions. */
export function formatSeconds(total: number): string {
  const whole = Math.floor(total);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * A problem with a chapter list, as a catalogue key and its values (docs/translating.md): the editor shows it with
 * the web's `t`, the server with the request's language. `kind`/`n` name the place: "Line 4", "Chapter 2".
 */
export type ChapterProblem = {
  key:
    | 'chapters.rule.badTime'
    | 'chapters.rule.tooMany'
    | 'chapters.rule.noTitle'
    | 'chapters.rule.titleTooLong'
    | 'chapters.rule.firstAtZero'
    | 'chapters.rule.order'
    | 'chapters.rule.tooShort'
    | 'chapters.rule.pastEnd';
  values: Record<string, string | number>;
};
/** Where a problem is: a description's line, or the editor's chapter. */
export type ChapterPlace = { kind: 'line' | 'chapter'; n: number };

/** The timed lines of a description, each with its line number (1-based); a malformed time is a problem. */
export function timedLines(description: string) {
  const lines: { line: number; seconds: number; title: string }[] = [];
  const problems: ChapterProblem[] = [];
  description.split(/\r\n|\r|\n/).forEach((text, index) => {
    const match = TIMED_LINE.exec(text);
    if (!match) return;
    const [, hours, minutes = '', seconds, title] = match;
    // h:mm:ss has two digits of minutes; `1:2:03` is not a time.
    if (hours !== undefined && minutes.length !== 2) return;
    const line = index + 1;
    if (Number(seconds) > 59 || (hours !== undefined && Number(minutes) > 59)) {
      problems.push({ key: 'chapters.rule.badTime', values: { line, text: text.trim().split(/\s/)[0] ?? '' } });
      return;
    }
    lines.push({
      line,
      seconds: Number(hours ?? 0) * 3600 + Number(minutes) * 60 + Number(seconds),
      title: (title ?? '').trim(),
    });
  });
  return { lines, problems };
}

/**
 * The problems of a chapter list, in words a teacher can act on (empty when it is good): at most
 * `LIMITS.chaptersMax`; the first at 0:00; each later one after the one before and at least
 * `LIMITS.chapterMinSeconds` after it; titles 1 to `LIMITS.chapterTitleMax` characters; every start before the end
 * of the video when its length is known. `where(i)` names the i-th chapter's place ("Line 4", "Chapter 2").
 */
export function chapterProblems(
  chapters: Chapter[],
  durationSeconds: number | undefined,
  where: (index: number) => ChapterPlace = (index) => ({ kind: 'chapter', n: index + 1 }),
): ChapterProblem[] {
  const problems: ChapterProblem[] = [];
  const say = (key: ChapterProblem['key'], values: ChapterProblem['values'] = {}) => problems.push({ key, values });
  if (chapters.length > LIMITS.chaptersMax) say('chapters.rule.tooMany', { max: LIMITS.chaptersMax });
  chapters.forEach((chapter, index) => {
    const at = where(index);
    if (chapter.title.length === 0) say('chapters.rule.noTitle', at);
    if (chapter.title.length > LIMITS.chapterTitleMax) {
      say('chapters.rule.titleTooLong', { ...at, max: LIMITS.chapterTitleMax });
    }
    if (index === 0 && chapter.seconds !== 0) say('chapters.rule.firstAtZero', at);
    const before = chapters[index - 1];
    if (before && chapter.seconds < before.seconds + LIMITS.chapterMinSeconds) {
      const times = { ...at, time: formatSeconds(chapter.seconds), before: formatSeconds(before.seconds) };
      if (chapter.seconds <= before.seconds) say('chapters.rule.order', times);
      else say('chapters.rule.tooShort', { ...times, min: LIMITS.chapterMinSeconds });
    }
    if (durationSeconds !== undefined && index > 0 && chapter.seconds >= durationSeconds) {
      say('chapters.rule.pastEnd', {
        ...at,
        time: formatSeconds(chapter.seconds),
        end: formatSeconds(durationSeconds),
      });
    }
  });
  return problems;
}

/**
 * The chapters a description makes, and its problems. Fewer than `LIMITS.chaptersMin` timed lines are plain text
 * (one "see 12:30" is no chapter list); from that many on they are meant as chapters and must follow the rules.
 */
export function chaptersFromDescription(description: string, durationSeconds?: number) {
  const { lines, problems } = timedLines(description);
  if (lines.length + problems.length < LIMITS.chaptersMin) return { chapters: [] as Chapter[], problems: [] };
  const chapters = lines.map(({ seconds, title }) => ({ seconds, title }));
  const ruleProblems = chapterProblems(chapters, durationSeconds, (index) => ({
    kind: 'line',
    n: lines[index]?.line ?? 0,
  }));
  return {
    chapters: problems.length || ruleProblems.length ? [] : chapters,
    problems: [...problems, ...ruleProblems],
  };
}

/**
 * The one place chapter sources combine (the seam for slides, issue 25): the editor's list when the teacher set one
 * (an empty list means "no chapters"), else the description's; then each titled slide that starts at least
 * `LIMITS.chapterMinSeconds` away from every chapter already there. Chapters at or past the end of the video (a
 * shorter video put in later) are left out.
 */
export function mergeChapters(sources: {
  editor: Chapter[] | null;
  description: Chapter[];
  slides?: Chapter[];
  durationSeconds?: number;
}): { chapters: Chapter[]; source: ChapterSource } {
  const own = sources.editor ?? sources.description;
  const source: ChapterSource = sources.editor ? 'editor' : own.length ? 'description' : 'none';
  const merged = [...own];
  for (const slide of sources.slides ?? []) {
    if (!slide.title) continue;
    if (merged.some((chapter) => Math.abs(chapter.seconds - slide.seconds) < LIMITS.chapterMinSeconds)) continue;
    merged.push(slide);
  }
  merged.sort((a, b) => a.seconds - b.seconds);
  const end = sources.durationSeconds;
  return {
    chapters: end ? merged.filter((chapter, index) => index === 0 || chapter.seconds < end) : merged,
    source,
  };
}

/** The editor's list as stored (`lectures.chapters`, JSON), or null when none was set or it does not read. */
export function storedChapters(json: string | null): Chapter[] | null {
  if (json === null) return null;
  try {
    const parsed = JSON.parse(json) as unknown;
    if (!Array.isArray(parsed)) return null;
    return parsed.filter(
      (item): item is Chapter => typeof item?.seconds === 'number' && typeof item?.title === 'string',
    );
  } catch {
    return null;
  }
}

/** A lecture's chapters as the player shows them, from its stored fields (and, later, its titled slides). */
export function chaptersOfLecture(
  lecture: { description: string; chapters: string | null },
  durationSeconds?: number,
  slides: Chapter[] = [],
) {
  return mergeChapters({
    editor: storedChapters(lecture.chapters),
    description: chaptersFromDescription(lecture.description).chapters,
    slides,
    durationSeconds,
  });
}
