import { formatBytes, formatLongDate } from '@lib/format';
import { t } from '@lib/i18n';
import { toast } from '@lib/toast';
import { QueryState } from '@ui/QueryState';
import { theirWords } from '@ui/TheirWords';
import { useOverview, useStartBackup, useTestMail } from '../api/admin';
import { JobQueue } from './JobQueue';

/** Disk, the job queue, mail and backups, refreshed every few seconds. */
export function AdminServer() {
  const query = useOverview();
  const testMail = useTestMail();
  const backup = useStartBackup();
  return (
    <QueryState query={query} label={t('admin.server.what')}>
      {(overview) => (
        <div className="flex flex-col gap-6">
          <section aria-labelledby="admin-disk" className="card p-4">
            <h2 id="admin-disk" className="font-semibold text-slate-900">
              {t('admin.server.disk')}
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {t('admin.server.diskText', {
                free: formatBytes(overview.disk.freeBytes),
                total: formatBytes(overview.disk.totalBytes),
                media: formatBytes(overview.disk.mediaBytes),
                min: formatBytes(overview.disk.minFreeBytes),
              })}
            </p>
            <p className="mt-1 text-xs text-slate-600" translate="no">
              Classroom {overview.version}
            </p>
          </section>

          <section aria-labelledby="admin-queue" className="card p-4">
            <h2 id="admin-queue" className="font-semibold text-slate-900">
              {t('admin.server.queue')}
            </h2>
            <JobQueue queue={overview.queue} />
          </section>

          <section aria-labelledby="admin-mail" className="card p-4">
            <h2 id="admin-mail" className="font-semibold text-slate-900">
              {t('admin.server.mail')}
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {overview.mail.kind === 'smtp'
                ? theirWords(t('admin.server.smtp', { from: overview.mail.from }))
                : t('admin.server.noSmtp')}
            </p>
            <button
              type="button"
              className="btn btn-secondary mt-3"
              disabled={testMail.isPending}
              onClick={() => testMail.mutate(undefined, { onSuccess: (answer) => toast.success(answer.message) })}
            >
              {t('admin.server.testMail')}
            </button>
          </section>

          <section aria-labelledby="admin-backups" className="card p-4">
            <h2 id="admin-backups" className="font-semibold text-slate-900">
              {t('admin.server.backups')}
            </h2>
            {overview.backups.dir ? (
              <>
                <p className="mt-1 text-sm break-all text-slate-700">
                  {theirWords(
                    overview.backups.everyHours
                      ? t('admin.server.backupPlan', {
                          hours: overview.backups.everyHours,
                          dir: overview.backups.dir,
                          keep: overview.backups.keep,
                        })
                      : t('admin.server.backupPlanManual', { dir: overview.backups.dir, keep: overview.backups.keep }),
                  )}
                </p>
                <button
                  type="button"
                  className="btn btn-primary mt-3"
                  disabled={backup.isPending}
                  onClick={() => backup.mutate(undefined, { onSuccess: (answer) => toast.success(answer.message) })}
                >
                  {t('admin.server.backupNow')}
                </button>
                <ul
                  className="mt-3 flex flex-col gap-1 text-sm text-slate-700"
                  aria-label={t('admin.server.snapshots')}
                >
                  {overview.backups.snapshots.length === 0 && <li>{t('admin.server.noSnapshot')}</li>}
                  {overview.backups.snapshots.map((snapshot) => (
                    <li key={snapshot.name}>
                      {t('admin.server.snapshot', {
                        date: formatLongDate(snapshot.createdAt),
                        files: snapshot.mediaFiles,
                        added: formatBytes(snapshot.bytesAdded),
                      })}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-1 text-sm text-slate-700">{t('admin.server.noBackupDir')}</p>
            )}
          </section>
        </div>
      )}
    </QueryState>
  );
}
