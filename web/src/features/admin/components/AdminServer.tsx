import { formatBytes, formatLongDate } from '@lib/format';
import { toast } from '@lib/toast';
import { QueryState } from '@ui/QueryState';
import { useOverview, useStartBackup, useTestMail } from '../api/admin';
import { JobQueue } from './JobQueue';

/** Disk, the job queue, mail and backups, refreshed every few seconds. */
export function AdminServer() {
  const query = useOverview();
  const testMail = useTestMail();
  const backup = useStartBackup();
  return (
    <QueryState query={query} label="the server's state">
      {(overview) => (
        <div className="flex flex-col gap-6">
          <section aria-labelledby="admin-disk" className="card p-4">
            <h2 id="admin-disk" className="font-semibold text-slate-900">
              Disk
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {formatBytes(overview.disk.freeBytes)} free of {formatBytes(overview.disk.totalBytes)}; media uses{' '}
              {formatBytes(overview.disk.mediaBytes)}. Uploads stop below {formatBytes(overview.disk.minFreeBytes)}{' '}
              free.
            </p>
            <p className="mt-1 text-xs text-slate-600">Classroom {overview.version}</p>
          </section>

          <section aria-labelledby="admin-queue" className="card p-4">
            <h2 id="admin-queue" className="font-semibold text-slate-900">
              Job queue
            </h2>
            <JobQueue queue={overview.queue} />
          </section>

          <section aria-labelledby="admin-mail" className="card p-4">
            <h2 id="admin-mail" className="font-semibold text-slate-900">
              Mail
            </h2>
            <p className="mt-1 text-sm text-slate-700">
              {overview.mail.kind === 'smtp'
                ? `Sent through SMTP as ${overview.mail.from}.`
                : 'No SMTP_URL is set: mails (with their codes) are written to the server log.'}
            </p>
            <button
              type="button"
              className="btn btn-secondary mt-3"
              disabled={testMail.isPending}
              onClick={() => testMail.mutate(undefined, { onSuccess: (answer) => toast.success(answer.message) })}
            >
              Send a test mail
            </button>
          </section>

          <section aria-labelledby="admin-backups" className="card p-4">
            <h2 id="admin-backups" className="font-semibold text-slate-900">
              Backups
            </h2>
            {overview.backups.dir ? (
              <>
                <p className="mt-1 text-sm break-all text-slate-700">
                  Every {overview.backups.everyHours} h into {overview.backups.dir}, keeping {overview.backups.keep}.
                </p>
                <button
                  type="button"
                  className="btn btn-primary mt-3"
                  disabled={backup.isPending}
                  onClick={() => backup.mutate(undefined, { onSuccess: (answer) => toast.success(answer.message) })}
                >
                  Start a backup now
                </button>
                <ul className="mt-3 flex flex-col gap-1 text-sm text-slate-700" aria-label="Snapshots">
                  {overview.backups.snapshots.length === 0 && <li>No snapshot yet.</li>}
                  {overview.backups.snapshots.map((snapshot) => (
                    <li key={snapshot.name}>
                      {formatLongDate(snapshot.createdAt)}: {snapshot.mediaFiles} media files, added{' '}
                      {formatBytes(snapshot.bytesAdded)}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-1 text-sm text-slate-700">
                Set BACKUP_DIR on the server to take snapshots from here (see docs/operations.md).
              </p>
            )}
          </section>
        </div>
      )}
    </QueryState>
  );
}
