import { backupIsDue } from './backup/schedule';
import { takeSnapshot } from './backup/snapshots';
import type { Config } from './config';
import type { Db } from './db/client';
import { deleteEndedOidcAttempts } from './db/queries/oidc-attempts';
import { createJobsClient } from './jobs/client';
import { enqueueJob } from './jobs/jobs';
import { createJobRunner } from './jobs/runner';
import type { Logger } from './lib/log';
import { deleteEndedWindows } from './lib/rate-limit';
import { ltiServiceHandlers } from './lti/service-jobs';
import { createMailer } from './mail/create-mailer';
import type { Mailer } from './mail/mailer';
import { downloadHandler } from './media/download';
import { expireResumableUploads } from './media/resumable-store';
import { slidesHandler } from './media/slides-job';
import { sweepLocalTemp, sweepMedia } from './media/sweep';
import { reclaimScratch, transcodeHandler } from './media/transcode-job';
import { notificationHandlers, pruneNotifications } from './notifications/notifications';
import type { Storage } from './storage/storage';
import { wireConsequences } from './wiring';

/** How often the cluster-wide cleanup runs (once, whichever worker claims it). */
export const SWEEP_EVERY_MS = 15 * 60 * 1000;

/**
 * The job runner with every handler: what `classroom all` runs in-process and `classroom worker` alone. The
 * cleanup of the cluster (orphan videos and files, expired uploads, the scheduled backup) is the periodic `sweep`
 * job, so however many workers run it runs once; each worker's own chore is its host's scratch folders.
 */
export function createWorker(deps: { config: Config; db: Db; storage: Storage; log: Logger; mailer?: Mailer }) {
  const { config, db, storage } = deps;
  // A job's change is projected onto its subject by a listener: subscribed before the first claim.
  wireConsequences();
  const mailer = deps.mailer ?? createMailer(config, deps.log);
  const jobLog = deps.log.child({ component: 'jobs' });
  const log = (line: string) => jobLog.info(line);
  const runner = createJobRunner({
    db,
    handlers: {
      transcode: transcodeHandler({ config, db, storage }),
      slides: slidesHandler({ config, db, storage, warn: (line) => jobLog.warn(line) }),
      download: downloadHandler({ config, db, storage }),
      ...notificationHandlers({ config, db, mailer }),
      ...ltiServiceHandlers({ config, db }),
      backup: {
        async run() {
          if (!config.backupDir) return;
          const manifest = await takeSnapshot({
            db,
            dataDir: config.dataDir,
            backupDir: config.backupDir,
            keep: config.backupKeep,
          });
          log(
            `[backup] snapshot ${manifest.name}: ${manifest.mediaFiles} media files, ${(manifest.bytesAdded / 1024 ** 2).toFixed(1)} MB added`,
          );
        },
      },
      sweep: {
        everyMs: SWEEP_EVERY_MS,
        async run() {
          const removed = await sweepMedia({ config, db, storage, jobs: createJobsClient(db, runner) });
          if (removed) log(`[media] cleanup removed ${removed} leftover file(s) or video(s)`);
          const expired = await expireResumableUploads(storage);
          if (expired) log(`[media] cleanup removed ${expired} unfinished upload(s) older than a day`);
          await deleteEndedWindows(db);
          await deleteEndedOidcAttempts(db);
          await pruneNotifications(db);
          if (config.backupDir && (await backupIsDue(db, config.backupDir, config.backupEveryMs))) {
            await enqueueJob(db, 'backup', {}, { maxAttempts: 1 });
          }
        },
      },
    },
    concurrency: config.transcodeConcurrency,
    leaseMs: config.jobLeaseMs,
    log,
    chores: async () => {
      const removed = (await reclaimScratch(db, config)) + sweepLocalTemp(config);
      if (removed) log(`[media] removed ${removed} scratch or temp file(s) no job or upload uses`);
    },
  });
  return runner;
}
