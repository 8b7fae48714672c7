import { t } from '@lib/i18n';
import { LoadError } from '@ui/QueryState';
import { Fragment, useState } from 'react';
import { useCourseProgress } from '../api/courses';

/** For the teacher: per lecture, how many enrolled students started and finished it, and each one's share watched. */
export function TeacherProgress({ courseId }: { courseId: string }) {
  const query = useCourseProgress(courseId);
  const [open, setOpen] = useState<string | null>(null);
  if (!query.data && query.isError) {
    return <LoadError label={t('classes.progress.what')} query={query} />;
  }
  const data = query.data;
  if (!data || data.lectures.length === 0) return null;
  const nameOf = new Map(data.students.map((s) => [s._id, s.username]));
  // On a phone (a narrow card, by container query) each lecture is a block and each pupil a small card with
  // labelled values: three columns and a pupil's name, bar and share did not fit in 375 px.
  return (
    <section aria-labelledby="progress-title" className="card @container overflow-hidden">
      <h2 id="progress-title" className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-900">
        {t('classes.progress.title')}{' '}
        <span className="font-normal text-slate-500">
          {t('classes.progress.enrolled', { count: data.students.length })}
        </span>
      </h2>
      <div className="overflow-x-auto">
        <table className="w-full text-sm @max-md:block">
          <thead className="bg-slate-50 text-start text-xs text-slate-500 uppercase @max-md:sr-only">
            <tr>
              <th className="px-4 py-2 font-medium">{t('classes.progress.lecture')}</th>
              <th className="px-4 py-2 font-medium">{t('classes.progress.started')}</th>
              <th className="px-4 py-2 font-medium">{t('classes.progress.finished')}</th>
            </tr>
          </thead>
          <tbody className="@max-md:block">
            {data.lectures.map((lecture) => (
              <Fragment key={lecture._id}>
                <tr className="border-t border-slate-100 align-top @max-md:flex @max-md:flex-wrap @max-md:gap-x-4 @max-md:px-4 @max-md:py-2">
                  <td className="px-4 py-2 @max-md:block @max-md:w-full @max-md:p-0">
                    <button
                      type="button"
                      className="min-h-6 text-start font-medium text-slate-900 hover:text-indigo-700 [overflow-wrap:anywhere] pointer-coarse:min-h-11"
                      aria-expanded={open === lecture._id}
                      aria-controls={`watchers-${lecture._id}`}
                      onClick={() => setOpen((id) => (id === lecture._id ? null : lecture._id))}
                    >
                      <span translate="no">{lecture.nameOfTopic}</span>
                    </button>
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700 @max-md:block @max-md:p-0 @max-md:text-xs">
                    <span className="text-slate-500 @md:hidden">{t('classes.progress.started')} </span>
                    {t('classes.progress.ratio', { done: lecture.started, total: lecture.enrolled })}
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap text-slate-700 @max-md:block @max-md:p-0 @max-md:text-xs">
                    <span className="text-slate-500 @md:hidden">{t('classes.progress.finished')} </span>
                    {t('classes.progress.ratio', { done: lecture.finished, total: lecture.enrolled })}
                  </td>
                </tr>
                {open === lecture._id && (
                  <tr id={`watchers-${lecture._id}`} className="@max-md:block">
                    <td colSpan={3} className="px-4 pb-3 @max-md:block">
                      <ul
                        className="flex flex-col gap-1 @max-md:gap-2"
                        aria-label={t('classes.progress.whoWatched', { lecture: lecture.nameOfTopic })}
                      >
                        {lecture.watchers.length === 0 && (
                          <li className="text-slate-500">{t('classes.progress.nobody')}</li>
                        )}
                        {lecture.watchers.map((watcher) => (
                          <li
                            key={watcher.studentId}
                            className="flex items-center gap-2 @max-md:flex-wrap @max-md:rounded-lg @max-md:border @max-md:border-slate-100 @max-md:bg-slate-50 @max-md:px-3 @max-md:py-2"
                          >
                            <span className="w-32 truncate text-slate-700 @max-md:w-full" translate="no">
                              {nameOf.get(watcher.studentId)}
                            </span>
                            <span className="text-xs text-slate-500 @md:sr-only">{t('classes.progress.watched')}</span>
                            <span className="h-1.5 w-24 overflow-hidden rounded-full bg-slate-200 @max-md:w-auto @max-md:min-w-0 @max-md:flex-1">
                              <span
                                className="block h-full bg-emerald-500"
                                style={{ width: `${watcher.watchedPercent}%` }}
                              />
                            </span>
                            <span className="text-xs text-slate-500">
                              {watcher.completed
                                ? t('classes.progress.done')
                                : t('common.percent', { percent: watcher.watchedPercent })}
                            </span>
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
