import { errorMessage } from '@api/query-client';
import { chapterProblems, formatSeconds } from '@contract/chapter-rules';
import type { LectureJson as Lecture } from '@contract/lectures';
import { LIMITS } from '@contract/limits';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { CloseIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { type FormEvent, useId, useRef, useState } from 'react';
import { type Chapter, type ChaptersJson, parseTime, useChapters, useSaveChapters } from '../api/chapters';

type Row = { key: number; time: string; title: string };

/** The problems of the rows as typed: a time that does not read, then the chapter rules (order, 0:00, length). */
function problemsOf(rows: Row[], durationSeconds: number | undefined) {
  const unread = rows.flatMap((row, index) =>
    parseTime(row.time) === null ? [t('chapters.editor.unreadTime', { position: index + 1 })] : [],
  );
  if (unread.length > 0) return unread;
  const chapters = rows.map((row) => ({ seconds: parseTime(row.time) as number, title: row.title.trim() }));
  return chapterProblems(chapters, durationSeconds).map((problem) => t(problem.key, problem.values));
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
        {t('chapters.title')}
      </h3>
      <QueryState query={query} label={t('chapters.loadLabel')} compact>
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
    send(
      chapters,
      chapters.length ? t('chapters.editor.saved', { count: chapters.length }) : t('chapters.editor.removed'),
    );
  }

  const last = rows[rows.length - 1];
  const addRow = () => {
    const after = last ? (parseTime(last.time) ?? 0) + 60 : 0;
    setRows((list) => [...list, { key: nextKey.current++, time: formatSeconds(after), title: '' }]);
  };

  return (
    <form onSubmit={onSave} className="flex flex-col gap-3" noValidate>
      <p className="text-sm text-slate-600" data-testid="chapters-source">
        {t(
          data.source === 'editor'
            ? 'chapters.editor.source.editor'
            : data.source === 'description'
              ? 'chapters.editor.source.description'
              : 'chapters.editor.source.none',
        )}{' '}
        {t('chapters.editor.slidesToo')}
      </p>
      {rows.length > 0 && (
        <ol className="flex flex-col gap-2" aria-label={t('chapters.editor.rows')}>
          {rows.map((row, index) => (
            <li key={row.key} className="flex items-end gap-2">
              <label className="flex w-24 shrink-0 flex-col gap-1 text-xs font-medium text-slate-700">
                {t('chapters.editor.start')}
                <input
                  className="input font-mono"
                  inputMode="numeric"
                  dir="ltr"
                  placeholder={t('chapters.editor.timePlaceholder')}
                  aria-label={t('chapters.editor.startLabel', { position: index + 1 })}
                  value={row.time}
                  onChange={(event) => change(row.key, 'time', event.target.value)}
                />
              </label>
              <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-slate-700">
                {t('common.title')}
                <input
                  className="input"
                  dir="auto"
                  aria-label={t('chapters.editor.titleLabel', { position: index + 1 })}
                  maxLength={LIMITS.chapterTitleMax}
                  value={row.title}
                  onChange={(event) => change(row.key, 'title', event.target.value)}
                />
              </label>
              <button
                type="button"
                className="icon-btn mb-0.5 shrink-0 text-red-700 hover:bg-red-50"
                aria-label={t('chapters.editor.remove', { position: index + 1 })}
                onClick={() => setRows((list) => list.filter((item) => item.key !== row.key))}
              >
                <CloseIcon size={16} />
              </button>
            </li>
          ))}
        </ol>
      )}
      {(problems.length > 0 || serverError) && (
        <ul id={`${id}-problems`} role="alert" className="flex list-disc flex-col gap-1 ps-5 text-sm text-red-700">
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
          {t('chapters.editor.add')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {t(save.isPending ? 'common.saving' : 'chapters.editor.save')}
        </button>
        {data.source === 'editor' && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={save.isPending}
            onClick={() => send(null, t('chapters.editor.fromDescription'))}
          >
            {t('chapters.editor.useDescription')}
          </button>
        )}
      </div>
    </form>
  );
}
