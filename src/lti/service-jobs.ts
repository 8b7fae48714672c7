import type { Config } from '../config';
import type { Db } from '../db/client';
import { coursesWithRosters, hasQueuedJob } from '../db/queries/lti-services';
import { enqueueJob } from '../jobs/jobs';
import type { JobHandlers } from '../jobs/runner';
import { sendScore } from './ags';
import { syncRoster } from './nrps';

/** The daily roster pull of every class linked to an LMS roster. */
export const ROSTERS_EVERY_MS = 24 * 60 * 60 * 1000;

/** The job subject of a class's roster sync: one waiting sync per class. */
export const rosterSubject = (courseId: string) => `lti-roster.${courseId}`;

/** Queues a roster sync of the class, unless one is waiting already; answers the new job or undefined. */
export async function enqueueRosterSync(db: Db, courseId: string) {
  const subjectId = rosterSubject(courseId);
  if (await hasQueuedJob(db, 'lti-roster-sync', subjectId)) return undefined;
  return enqueueJob(db, 'lti-roster-sync', { courseId }, { subjectId, maxAttempts: 3 });
}

/** The LTI Advantage service jobs (src/worker-jobs.ts): a class's roster, the daily rosters, a score. */
export function ltiServiceHandlers(deps: {
  config: Config;
  db: Db;
}): Pick<JobHandlers, 'lti-roster-sync' | 'lti-rosters' | 'lti-score'> {
  const { config, db } = deps;
  return {
    'lti-roster-sync': {
      async run({ courseId }, context) {
        const result = await syncRoster(db, config, courseId, context.signal);
        context.log(
          `[lti] roster of class ${courseId}: ${result.added} added, ${result.removed} removed, ${result.skipped} skipped`,
        );
        return result;
      },
    },
    'lti-rosters': {
      everyMs: ROSTERS_EVERY_MS,
      async run() {
        for (const courseId of await coursesWithRosters(db)) await enqueueRosterSync(db, courseId);
      },
    },
    'lti-score': {
      run: ({ linkId, userId }) => sendScore(db, linkId, userId),
    },
  };
}
