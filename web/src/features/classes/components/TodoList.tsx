import { formatDueDate, formatLongDate } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { Link } from 'react-router';
import { useTodo } from '../api/insight';

/**
 * A student's "To do" (issue 33): the lectures with a "Watch by" date not yet completed, across their classes,
 * soonest first, each a link to the lecture. Nothing when there is none (or it cannot load: the classes follow).
 */
export function TodoList() {
  const query = useTodo(true);
  const items = query.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="todo-title" className="card mt-6 overflow-hidden" data-testid="todo">
      <h2 id="todo-title" className="border-b border-slate-100 px-4 py-3 font-semibold text-slate-900">
        {t('todo.title')}
      </h2>
      <ul className="divide-y divide-slate-100">
        {items.map((item) => (
          <li key={item.lectureId}>
            <Link
              to={`/classroom/${encodeURIComponent(item.courseId)}?lecture=${encodeURIComponent(item.lectureId)}`}
              className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 px-4 py-2.5 hover:bg-slate-50"
            >
              <span className="min-w-0">
                <span className="font-medium [overflow-wrap:anywhere] text-slate-900" translate="no">
                  {item.nameOfTopic}
                </span>{' '}
                <span className="text-sm text-slate-500">
                  {rich(t('todo.in', { course: item.courseName }), [
                    (course) => (
                      <span key="course" translate="no">
                        {course}
                      </span>
                    ),
                  ])}
                </span>
              </span>
              <span className="flex gap-2 text-xs">
                {item.percent > 0 && (
                  <span className="text-slate-600">{t('todo.watched', { percent: item.percent })}</span>
                )}
                <span
                  className={item.overdue ? 'font-medium text-rose-700' : 'text-slate-600'}
                  title={formatLongDate(item.dueAt)}
                >
                  {item.overdue
                    ? t('lectures.due.overdue')
                    : t('lectures.due.due', { date: formatDueDate(item.dueAt) })}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
