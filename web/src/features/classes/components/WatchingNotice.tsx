import { t } from '@lib/i18n';
import { Modal } from '@ui/Modal';
import { QueryState } from '@ui/QueryState';
import { useState } from 'react';
import { useStudentInsight } from '../api/insight';
import { LectureCoverageList } from './StudentCoverageDialog';

/**
 * For a student on the class page (issue 33): what the teacher can see, said plainly, and their own coverage of
 * each lecture, part by part, the same bars the teacher sees.
 */
export function WatchingNotice({ courseId, userId }: { courseId: string; userId: string }) {
  const [open, setOpen] = useState(false);
  const query = useStudentInsight(courseId, open ? userId : null);
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600" data-testid="watching-notice">
      <p>{t('insight.tellStudents')}</p>
      <button type="button" className="font-medium text-indigo-700 hover:underline" onClick={() => setOpen(true)}>
        {t('insight.seeMine')}
      </button>
      <Modal open={open} title={t('insight.mineTitle')} onClose={() => setOpen(false)}>
        <QueryState query={query} label={t('insight.mineWhat')} compact>
          {(data) => <LectureCoverageList lectures={data.lectures} />}
        </QueryState>
      </Modal>
    </div>
  );
}
