import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { getHistory, type HistoryEntry } from '../api/lectures';
import { HistoryIcon, PlayIcon } from '../components/icons';
import { Spinner } from '../components/Spinner';
import { formatClock, formatLongDate } from '../lib/format';

export function HistoryPage() {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  useEffect(() => {
    getHistory()
      .then(setEntries)
      .catch(() => setEntries([]));
  }, []);
  return (
    <section className="mx-auto max-w-3xl">
      <h1 className="page-title">History</h1>
      {entries === null ? (
        <div className="flex justify-center py-20">
          <Spinner label="Loading history" />
        </div>
      ) : entries.length === 0 ? (
        <div className="empty-state mt-6">
          <HistoryIcon size={40} className="text-indigo-400" />
          <p className="mt-3 font-medium text-slate-800">Nothing here yet</p>
          <p className="mt-1 text-sm text-slate-600">Lectures you watch will appear here, with how far you got.</p>
        </div>
      ) : (
        <ul className="mt-6 flex flex-col gap-3">
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
                  <p className="truncate font-medium text-slate-900">{entry.nameOfTopic}</p>
                  <p className="truncate text-sm text-slate-600">{entry.courseName}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {entry.completed
                      ? 'Finished'
                      : `${entry.watchedPercent}% watched · stopped at ${formatClock(entry.position)} of ${formatClock(entry.duration)}`}{' '}
                    · {formatLongDate(entry.watchedAt)}
                  </p>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
