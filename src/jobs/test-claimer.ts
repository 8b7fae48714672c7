/**
 * For jobs.test.ts: a second process claiming jobs from the same database (SQLite file or PostgreSQL), `lanes` claims in flight at once,
 * until none is left; prints the claimed ids as JSON. (Two connections in one process would block each other: a
 * waiting writer blocks the thread the other needs to commit.)
 */
import { type DatabaseTarget, openDatabase } from '../db/client';
import { claimJob } from './jobs';

const [target, name, lanes, startAt] = process.argv.slice(2) as [string, string, string, string];
const database = openDatabase(JSON.parse(target) as DatabaseTarget);
const { db } = database;
const taken: string[] = [];
// Both processes start claiming at the same moment, whenever each was spawned.
await Bun.sleep(Math.max(0, Number(startAt) - Date.now()));
await Promise.all(
  Array.from({ length: Number(lanes) }, async (_, lane) => {
    for (let n = 0; ; n++) {
      const job = await claimJob(db, `${name}.${lane}-${n}`, 60_000);
      if (!job) return;
      taken.push(job.id);
      // A worker does its job before it claims the next: the database is free for a moment (SQLite's writers
      // take turns; a process that never lets go would starve the other of the lock).
      await Bun.sleep(10);
    }
  }),
);
await database.close();
console.log(JSON.stringify(taken));
