import { formatClock, formatLongDate } from '@lib/format';
import { t } from '@lib/i18n';
import { usePageTitle } from '@lib/use-page-title';
import { HistoryIcon, PlayIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { Link } from 'react-router';
import { useHistory } from '../features/lectures/api/lectures';

export function HistoryPage() {
  const query = useHistory();
  usePageTitle(t('history.title'));
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="page-title">{t('history.title')}</h1>
      <div className="mt-6">
        <QueryState
          query={query}
          label={t('history.what')}
          empty={
            <div className="empty-state">
              <HistoryIcon size={40} className="text-indigo-400" />
              <p className="mt-3 font-medium text-slate-800">{t('history.empty')}</p>
              <p className="mt-1 text-sm text-slate-600">{t('history.emptyHint')}</p>
            </div>
          }
        >
          {(entries) => (
            <ul className="flex flex-col gap-3">
              {entries.map((entry) => (
                <li key={entry.lectureId}>
                  <Link
                    to={`/classroom/${entry.courseId}?lecture=${entry.lectureId}`}
                    className="card flex items-center gap-4 p-3 transition hover:shadow-md"
                  >
                    <div className="relative aspect-video w-28 shrink-0 overflow-hidden rounded-lg bg-slate-800 sm:w-40">
                      {entry.posterUrl ? (
                        <img src={entry.posterUrl} alt="" className="size-full object-cover" loading="lazy" />
                      ) : (
                        <span className="flex size-full items-center justify-center text-slate-400">
                          <PlayIcon size={18} />
                        </span>
                      )}
                      <span className="absolute inset-x-0 bottom-0 h-1 bg-black/40">
                        <span className="block h-full bg-indigo-500" style={{ width: `${entry.watchedPercent}%` }} />
                      </span>
                    </div>
                    <div className="min-w-0 flex-1">
                      <p className="truncate font-medium text-slate-900" translate="no">
                        {entry.nameOfTopic}
                      </p>
                      <p className="truncate text-sm text-slate-600" translate="no">
                        {entry.courseName}
                      </p>
                      <p className="mt-1 text-xs text-slate-500">
                        {entry.completed
                          ? t('history.finished')
                          : t('history.progress', {
                              percent: entry.watchedPercent,
                              position: formatClock(entry.position),
                              duration: formatClock(entry.duration),
                            })}{' '}
                        · {formatLongDate(entry.watchedAt)}
                      </p>
                    </div>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </div>
    </section>
  );
}
