import { ApiError } from '@api/client';
import { INSIGHT_FILTERS, insightCsvUrl } from '@contract/insight';
import { formatDueDate, formatRelative } from '@lib/format';
import { t } from '@lib/i18n';
import { LoadError } from '@ui/QueryState';
import { Spinner } from '@ui/Spinner';
import { useCallback, useRef, useState } from 'react';
import {
  type InsightCell,
  type InsightFilter,
  type InsightLecture,
  type InsightParams,
  type InsightSort,
  useInsight,
} from '../api/insight';
import { StudentCoverageDialog } from './StudentCoverageDialog';

/** Below this width the table shows one lecture at a time, chosen in a select (a phone). */
const NARROW_PX = 640;
const PAGE_SIZE = 50;

const filterLabel = (filter: InsightFilter) =>
  ({
    all: t('insight.filter.all'),
    'not-started': t('insight.filter.notStarted'),
    'in-progress': t('insight.filter.inProgress'),
    done: t('insight.filter.done'),
    overdue: t('insight.filter.overdue'),
  })[filter];

const sortLabel = (sort: InsightSort) =>
  ({ name: t('insight.sort.name'), percent: t('insight.sort.percent'), last: t('insight.sort.last') })[sort];

/** Past its due date and not completed. */
const overdue = (lecture: InsightLecture, cell: InsightCell | undefined) =>
  !!lecture.dueAt && Date.parse(lecture.dueAt) < Date.now() && !cell?.completed;

/**
 * For the teacher (issue 33): the class's students × lectures, each cell what the student really played (percent
 * of the 100 parts), done or not, when last watched, late or overdue. Sorted, filtered and paged by the server; on a
 * phone one lecture at a time. A student's name opens their lectures part by part; "Download CSV" exports it all.
 */
export function TeacherProgress({ courseId }: { courseId: string }) {
  const [params, setParams] = useState<InsightParams>({
    page: 1,
    size: PAGE_SIZE,
    sort: 'name',
    dir: 'asc',
    filter: 'all',
  });
  const change = (next: Partial<InsightParams>) => setParams((old) => ({ ...old, page: 1, ...next }));
  const query = useInsight(courseId, params);
  const [ref, narrow] = useNarrow();
  const [student, setStudent] = useState<{ _id: string; username: string } | null>(null);

  if (!query.data && query.isError) {
    if (query.error instanceof ApiError && query.error.code === 'tracking_off') {
      return (
        <section className="card px-4 py-3 text-sm text-slate-600" data-testid="insight-off">
          <h2 className="mb-1 font-semibold text-slate-900">{t('classes.progress.title')}</h2>
          {t('insight.trackingOff')}
        </section>
      );
    }
    return <LoadError label={t('classes.progress.what')} query={query} />;
  }
  const data = query.data;
  if (!data) {
    return (
      <div ref={ref} className="flex justify-center py-6">
        <Spinner label={t('ui.loadingWhat', { what: t('classes.progress.what') })} />
      </div>
    );
  }
  if (data.lectures.length === 0) return <div ref={ref} />;
  // On a phone: the lecture chosen (or the first); wide: every lecture, or the one chosen.
  const shownLectureId = params.lecture ?? (narrow ? data.lectures[0]?._id : undefined);
  const columns = data.lectures.filter((lecture) => !shownLectureId || lecture._id === shownLectureId);
  const pages = Math.max(1, Math.ceil(data.total / data.size));
  const first = data.total === 0 ? 0 : (data.page - 1) * data.size + 1;
  const last = Math.min(data.total, data.page * data.size);

  return (
    <section ref={ref} aria-labelledby="progress-title" className="card overflow-hidden" data-testid="insight">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
        <h2 id="progress-title" className="font-semibold text-slate-900">
          {t('classes.progress.title')}{' '}
          <span className="font-normal text-slate-500">{t('insight.students', { count: data.total })}</span>
        </h2>
        <a className="btn btn-secondary px-3 py-1.5 text-sm" href={insightCsvUrl(courseId)} download>
          {t('insight.csv')}
        </a>
      </div>
      <p className="px-4 pt-3 text-xs text-slate-500">{t('insight.explain')}</p>
      <div className="flex flex-wrap items-end gap-3 px-4 py-3 text-sm">
        <label className="flex min-w-0 flex-col gap-1">
          <span className="text-xs text-slate-500">{t('insight.lecture')}</span>
          <select
            className="input max-w-64 py-1.5"
            value={shownLectureId ?? ''}
            onChange={(event) => change({ lecture: event.target.value || undefined })}
            data-testid="insight-lecture"
          >
            {!narrow && <option value="">{t('insight.allLectures')}</option>}
            {data.lectures.map((lecture) => (
              <option key={lecture._id} value={lecture._id} translate="no">
                {lecture.nameOfTopic}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">{t('insight.show')}</span>
          <select
            className="input py-1.5"
            value={params.filter}
            onChange={(event) => change({ filter: event.target.value as InsightFilter })}
            data-testid="insight-filter"
          >
            {INSIGHT_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {filterLabel(filter)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span className="text-xs text-slate-500">{t('insight.sortBy')}</span>
          <select
            className="input py-1.5"
            value={`${params.sort} ${params.dir}`}
            onChange={(event) => {
              const [sort, dir] = event.target.value.split(' ') as [InsightSort, 'asc' | 'desc'];
              change({ sort, dir });
            }}
            data-testid="insight-sort"
          >
            {(['name', 'percent', 'last'] as const).flatMap((sort) =>
              (['asc', 'desc'] as const).map((dir) => (
                <option key={`${sort} ${dir}`} value={`${sort} ${dir}`}>
                  {t(dir === 'asc' ? 'insight.sort.ascending' : 'insight.sort.descending', { by: sortLabel(sort) })}
                </option>
              )),
            )}
          </select>
        </label>
        {query.isFetching && <Spinner size={16} label={t('common.loading')} />}
      </div>
      {/* Many lectures scroll sideways: the box takes the focus, so the keyboard scrolls it too (axe). */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard */}
      <section className="overflow-x-auto" tabIndex={0} aria-labelledby="progress-title">
        <table className="w-full text-sm" data-testid="insight-table">
          <thead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <th scope="col" className="sticky start-0 bg-slate-50 px-4 py-2 text-start font-medium">
                {t('insight.student')}
              </th>
              {columns.map((lecture) => (
                <th key={lecture._id} scope="col" className="min-w-36 px-3 py-2 text-start align-bottom font-medium">
                  <span className="line-clamp-2 [overflow-wrap:anywhere] text-slate-700" translate="no">
                    {lecture.nameOfTopic}
                  </span>
                  {lecture.dueAt && (
                    <span className="block font-normal" title={lecture.dueAt}>
                      {t('insight.due', { date: formatDueDate(lecture.dueAt) })}
                    </span>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.students.length === 0 && (
              <tr>
                <td colSpan={columns.length + 1} className="px-4 py-4 text-slate-500">
                  {t(params.filter === 'all' ? 'insight.noStudents' : 'insight.noneMatch')}
                </td>
              </tr>
            )}
            {data.students.map((row) => (
              <tr key={row._id} className="border-t border-slate-100 align-top" data-testid="insight-row">
                <th scope="row" className="sticky start-0 bg-white px-4 py-2 text-start font-medium">
                  {/* Broken only inside a word longer than the column (a name is never cut to "Studen-t" to fit). */}
                  <button
                    type="button"
                    className="min-h-6 max-w-40 text-start text-slate-900 [overflow-wrap:break-word] hover:text-indigo-700 hover:underline pointer-coarse:min-h-11"
                    onClick={() => setStudent(row)}
                  >
                    <span translate="no">{row.username}</span>
                  </button>
                </th>
                {columns.map((lecture) => (
                  <CoverageCell
                    key={lecture._id}
                    lecture={lecture}
                    cell={row.lectures.find((cell) => cell.lectureId === lecture._id)}
                  />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {data.total > data.size && (
        <nav
          className="flex items-center justify-between gap-2 border-t border-slate-100 px-4 py-2 text-sm"
          aria-label={t('insight.pages')}
        >
          <span className="text-slate-600">{t('insight.range', { first, last, total: data.total })}</span>
          <span className="flex gap-2">
            <button
              type="button"
              className="btn btn-secondary px-3 py-1"
              disabled={data.page <= 1}
              onClick={() => setParams((old) => ({ ...old, page: old.page - 1 }))}
            >
              {t('insight.previous')}
            </button>
            <button
              type="button"
              className="btn btn-secondary px-3 py-1"
              disabled={data.page >= pages}
              onClick={() => setParams((old) => ({ ...old, page: old.page + 1 }))}
            >
              {t('insight.next')}
            </button>
          </span>
        </nav>
      )}
      <StudentCoverageDialog courseId={courseId} student={student} onClose={() => setStudent(null)} />
    </section>
  );
}

function CoverageCell({ lecture, cell }: { lecture: InsightLecture; cell: InsightCell | undefined }) {
  const started = !!cell && (cell.percent > 0 || cell.lastWatchedAt !== null);
  const late = overdue(lecture, cell);
  return (
    <td className="px-3 py-2" data-testid="insight-cell" data-lecture={lecture._id} data-percent={cell?.percent ?? 0}>
      <div className="flex items-center gap-2">
        <span className="h-1.5 w-16 shrink-0 overflow-hidden rounded-full bg-slate-200">
          <span
            className={`block h-full ${cell?.completed ? 'bg-emerald-500' : 'bg-indigo-500'}`}
            style={{ width: `${cell?.percent ?? 0}%` }}
          />
        </span>
        <span className="tabular-nums text-slate-800">{t('common.percent', { percent: cell?.percent ?? 0 })}</span>
      </div>
      <div className="mt-0.5 flex flex-wrap gap-x-2 text-xs">
        {cell?.completed ? (
          <span className={cell.late ? 'text-amber-700' : 'text-emerald-700'}>
            {t(cell.late ? 'insight.doneLate' : 'insight.done')}
          </span>
        ) : late ? (
          <span className="font-medium text-rose-700">{t('insight.overdue')}</span>
        ) : !started ? (
          <span className="text-slate-500">{t('insight.notStarted')}</span>
        ) : null}
        {cell?.lastWatchedAt && (
          <span className="text-slate-500" title={cell.lastWatchedAt}>
            {formatRelative(cell.lastWatchedAt)}
          </span>
        )}
        {cell?.score && (
          <span className="text-slate-700" data-testid="insight-score">
            {t('insight.score', { right: cell.score.right, total: cell.score.total })}
          </span>
        )}
      </div>
    </td>
  );
}

/** Whether the element is narrower than a phone's table allows (followed as it resizes); `ref` is a callback ref. */
function useNarrow() {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.innerWidth < NARROW_PX);
  const observer = useRef<ResizeObserver | null>(null);
  const ref = useCallback((element: HTMLElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!element || typeof ResizeObserver === 'undefined') return;
    observer.current = new ResizeObserver(([entry]) => {
      if (entry) setNarrow(entry.contentRect.width < NARROW_PX);
    });
    observer.current.observe(element);
  }, []);
  return [ref, narrow] as const;
}
