import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { listSnapshots } from './snapshots';

/** A scheduled backup is due when the newest snapshot is older than BACKUP_EVERY and none waits or runs. */
export async function backupIsDue(db: Db, backupDir: string, everyMs: number, now = Date.now()) {
  const newest = listSnapshots(backupDir)[0];
  if (newest && now - Date.parse(newest.createdAt) < everyMs) return false;
  const pending = await db.$count(jobs, and(eq(jobs.type, 'backup'), inArray(jobs.state, ['queued', 'running'])));
  return pending === 0;
}
