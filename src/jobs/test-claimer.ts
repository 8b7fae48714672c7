/**
 * For jobs.test.ts: a second process claiming jobs from the same database (SQLite file or PostgreSQL), `lanes` claims in flight at once,
 * until none is left; prints the claimed ids as JSON. (Two connections in one process would block each other: a
 * waiting writer blocks the thread the other needs to commit.)
 */
import { type DatabaseTarget, openDatabase } from '../db/client';
import { claimJob } from './jobs';

const [target, name, lanes] = process.argv.slice(2) as [string, string, string];
const database = openDatabase(JSON.parse(target) as DatabaseTarget);
const { db } = database;
const taken: string[] = [];
await Promise.all(
  Array.from({ length: Number(lanes) }, async (_, lane) => {
    for (let n = 0; ; n++) {
      const job = await claimJob(db, `${name}.${lane}-${n}`, 60_000);
      if (!job) return;
      taken.push(job.id);
    }
  }),
);
await database.close();
console.log(JSON.stringify(taken));
