import { errorMessage } from '@api/query-client';
import { chapterProblems, formatSeconds } from '@contract/chapter-rules';
import type { LectureJson as Lecture } from '@contract/lectures';
import { LIMITS } from '@contract/limits';
import { toast } from '@lib/toast';
import { CloseIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type Chapter, type ChaptersJson, parseTime, useChapters, useSaveChapters } from '../api/chapters';

type Row = { key: number; time: string; title: string };

/** The problems of the rows as typed: a time that does not read, then the chapter rules (order, 0:00, length). */
function problemsOf(rows: Row[], durationSeconds: number | undefined) {
  const unread = rows.flatMap((row, index) =>
    parseTime(row.time) === null
      ? [`Chapter ${index + 1}: type the time as minutes and seconds (4:05) or hours, minutes and seconds (1:04:05).`]
      : [],
  );
  if (unread.length > 0) return unread;
  const chapters = rows.map((row) => ({ seconds: parseTime(row.time) as number, title: row.title.trim() }));
  return chapterProblems(chapters, durationSeconds);
}

/**
 * A topic's chapters, in the Edit Topic modal under its captions: rows of a start time (m:ss or h:mm:ss) and a
 * title, added, removed and saved as a list that takes the place of the description's timed lines (which apply
 * while no list is set; "Use the description" goes back to them).
 */
export function ChaptersEditor({ lecture }: { lecture: Lecture }) {
  const query = useChapters(lecture._id);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="mt-6 flex flex-col gap-3 border-t border-slate-200 pt-4">
      <h3 id={`${id}-heading`} className="text-sm font-semibold text-slate-900">
        Chapters
      </h3>
      <QueryState query={query} label="the chapters" compact>
        {(data) => <ChapterRows key={JSON.stringify(data.editor ?? data.chapters)} lecture={lecture} data={data} />}
      </QueryState>
    </section>
  );
}

function ChapterRows({ lecture, data }: { lecture: Lecture; data: ChaptersJson }) {
  const save = useSaveChapters(lecture);
  const nextKey = useRef(0);
  const rowOf = (chapter: Chapter): Row => ({
    key: nextKey.current++,
    time: formatSeconds(chapter.seconds),
    title: chapter.title,
  });
  const [rows, setRows] = useState<Row[]>(() => (data.editor ?? data.chapters).map(rowOf));
  const [tried, setTried] = useState(false);
  const [serverError, setServerError] = useState('');
  const id = useId();
  const problems = tried ? problemsOf(rows, lecture.video?.durationSeconds ?? undefined) : [];

  const change = (key: number, field: 'time' | 'title', value: string) =>
    setRows((list) => list.map((row) => (row.key === key ? { ...row, [field]: value } : row)));

  async function send(chapters: Chapter[] | null, done: string) {
    setServerError('');
    try {
      await save.mutateAsync(chapters);
      setTried(false);
      toast.success(done);
    } catch (failure) {
      setServerError(errorMessage(failure));
    }
  }

  function onSave(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problemsOf(rows, lecture.video?.durationSeconds ?? undefined).length > 0) return;
    const chapters = rows.map((row) => ({ seconds: parseTime(row.time) as number, title: row.title.trim() }));
    send(chapters, chapters.length ? `Chapters saved: ${chapters.length}` : 'Chapters removed');
  }

  const last = rows[rows.length - 1];
  const addRow = () => {
    const after = last ? (parseTime(last.time) ?? 0) + 60 : 0;
    setRows((list) => [...list, { key: nextKey.current++, time: formatSeconds(after), title: '' }]);
  };

  return (
    <form onSubmit={onSave} className="flex flex-col gap-3" noValidate>
      <p className="text-sm text-slate-600" data-testid="chapters-source">
        {data.source === 'editor'
          ? 'These chapters were set here; they take the place of any times in the description.'
          : data.source === 'description'
            ? 'These chapters come from the timed lines in the description (such as "4:05 Worked example"). Saving a list here takes their place.'
            : 'No chapters yet. Add them here, or write timed lines in the description ("0:00 Introduction", "4:05 Worked example"); the first starts at 0:00.'}{' '}
        Slides you give a title show as chapters too.
      </p>
      {rows.length > 0 && (
        <ol className="flex flex-col gap-2" aria-label="Chapter rows">
          {rows.map((row, index) => (
            <li key={row.key} className="flex items-end gap-2">
              <label className="flex w-24 shrink-0 flex-col gap-1 text-xs font-medium text-slate-700">
                Start
                <input
                  className="input font-mono"
                  inputMode="numeric"
                  placeholder="m:ss"
                  aria-label={`Chapter ${index + 1} start (m:ss or h:mm:ss)`}
                  value={row.time}
                  onChange={(event) => change(row.key, 'time', event.target.value)}
                />
              </label>
              <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-slate-700">
                Title
                <input
                  className="input"
                  aria-label={`Chapter ${index + 1} title`}
                  maxLength={LIMITS.chapterTitleMax}
                  value={row.title}
                  onChange={(event) => change(row.key, 'title', event.target.value)}
                />
              </label>
              <button
                type="button"
                className="icon-btn mb-0.5 shrink-0 text-red-700 hover:bg-red-50"
                aria-label={`Remove chapter ${index + 1}`}
                onClick={() => setRows((list) => list.filter((item) => item.key !== row.key))}
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ol>
      )}
      {(problems.length > 0 || serverError) && (
        <ul id={`${id}-problems`} role="alert" className="flex list-disc flex-col gap-1 pl-5 text-sm text-red-700">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
          {serverError && problems.length === 0 && <li>{serverError}</li>}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className="btn btn-secondary"
          onClick={addRow}
          disabled={rows.length >= LIMITS.chaptersMax}
        >
          Add chapter
        </button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save chapters'}
        </button>
        {data.source === 'editor' && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={save.isPending}
            onClick={() => send(null, 'Chapters now come from the description')}
          >
            Use the description
          </button>
        )}
      </div>
    </form>
  );
}
