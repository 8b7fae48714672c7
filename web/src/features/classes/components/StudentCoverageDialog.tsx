import { formatDueDate, formatRelative } from '@lib/format';
import { t } from '@lib/i18n';
import { Modal } from '@ui/Modal';
import { QueryState } from '@ui/QueryState';
import { type InsightStudentJson, useStudentInsight } from '../api/insight';
import { PartsBar } from './CoverageBar';

/** The teacher's look at one student (issue 33): each lecture's 100 parts as a bar, with percent and state. */
export function StudentCoverageDialog({
  courseId,
  student,
  onClose,
}: {
  courseId: string;
  student: { _id: string; username: string } | null;
  onClose: () => void;
}) {
  const query = useStudentInsight(courseId, student?._id ?? null);
  const name = student?.username ?? '';
  return (
    <Modal
      open={student !== null}
      title={t('insight.studentTitle', { name })}
      heading={<span translate="no">{name}</span>}
      onClose={onClose}
    >
      <QueryState query={query} label={t('insight.studentWhat')} compact>
        {(data) => <LectureCoverageList lectures={data.lectures} />}
      </QueryState>
    </Modal>
  );
}

/** Each lecture's coverage as a bar of 100 parts: the teacher's dialog, and a student's own view. */
export function LectureCoverageList({ lectures }: { lectures: InsightStudentJson['lectures'] }) {
  if (lectures.length === 0) return <p className="text-sm text-slate-500">{t('insight.noLectures')}</p>;
  return (
    <ul className="flex max-h-[60dvh] flex-col gap-3 overflow-y-auto" data-testid="student-coverage">
      {lectures.map((lecture) => {
        const overdue = !!lecture.dueAt && Date.parse(lecture.dueAt) < Date.now() && !lecture.completed;
        return (
          <li key={lecture.lectureId} className="flex flex-col gap-1">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="min-w-0 font-medium [overflow-wrap:anywhere] text-slate-900" translate="no">
                {lecture.nameOfTopic}
              </span>
              <span className="shrink-0 tabular-nums text-slate-700">
                {t('common.percent', { percent: lecture.percent })}
              </span>
            </div>
            <PartsBar parts={lecture.parts} />
            <p className="flex flex-wrap gap-x-2 text-xs text-slate-500">
              {lecture.completed ? (
                <span className={lecture.late ? 'text-amber-700' : 'text-emerald-700'}>
                  {t(lecture.late ? 'insight.doneLate' : 'insight.done')}
                </span>
              ) : overdue ? (
                <span className="font-medium text-rose-700">{t('insight.overdue')}</span>
              ) : lecture.dueAt ? (
                <span>{t('insight.due', { date: formatDueDate(lecture.dueAt) })}</span>
              ) : null}
              {lecture.lastWatchedAt && (
                <span>{t('insight.lastWatched', { when: formatRelative(lecture.lastWatchedAt) })}</span>
              )}
              {lecture.score && (
                <span>{t('insight.score', { right: lecture.score.right, total: lecture.score.total })}</span>
              )}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
