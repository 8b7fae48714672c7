import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { z } from 'zod';
import { pendingMigrations, type Role } from '../bootstrap';
import type { Config } from '../config';
import { nowMs } from '../db/dialect';
import { workers } from '../db/schema';
import { transaction } from '../db/transaction';
import type { AppDeps, AppEnv } from '../deps';
import { answers } from '../http/openapi';
import { sinceLastWorkerBeat } from '../jobs/jobs';
import { HOST, heartbeatMs } from '../jobs/runner';
import { newId } from '../lib/ids';
import { VERSION } from '../lib/version';
import { checkFfmpeg } from '../media/ffmpeg';

const FFMPEG_CHECK_MS = 60_000;

type Check = { name: string; ok: boolean; detail?: string };
export type HealthDeps = Pick<AppDeps, 'config' | 'db' | 'storage' | 'role'> & {
  /** The migrations this build has (default: its migrations folder); tests name one the database lacks. */
  migrationTags?: string[];
};
type Probe = () => Promise<string | undefined> | string | undefined;

/** How long workers may stay silent before they count as gone: three missed heartbeats and some slack. */
const allowedSilence = (config: Config) => 3 * heartbeatMs(config.jobLeaseMs) + 5_000;

/**
 * The readiness checks of a role. Every role: the database takes a write, its schema is this build's (no pending
 * migration), storage answers. `serve` and `all` (HTTP): the data folder takes a file and has room. `worker` and
 * `all` (jobs): ffmpeg 5.1 or newer is there, and a job worker reported alive recently (`all`: any; `worker`: one
 * of this host). A `serve` never checks ffmpeg: it never runs it.
 */
export function readinessChecks(role: Role, deps: HealthDeps) {
  const { config, db, storage } = deps;
  let ffmpeg: { problem: string | undefined; at: number } | undefined;
  const checks: [string, Probe][] = [
    [
      'database',
      async () => {
        // A write (that changes nothing) proves the database takes writes.
        await transaction(db, async (tx) => {
          await tx
            .update(workers)
            .set({ beatAt: sql`${workers.beatAt}` })
            .where(eq(workers.owner, ''));
        });
        return undefined;
      },
    ],
    [
      'schema',
      async () => {
        const pending = await pendingMigrations(db, deps.migrationTags);
        return pending.length ? `${pending.length} migration(s) pending: run \`classroom migrate\`` : undefined;
      },
    ],
    [
      'storage',
      async () => {
        await storage.stat('health/ready-probe');
        return undefined;
      },
    ],
  ];
  if (role === 'serve' || role === 'all') {
    checks.push([
      'data_folder',
      () => {
        const probe = join(config.dataDir, `.ready-${newId()}`);
        writeFileSync(probe, 'ok');
        rmSync(probe, { force: true });
        const disk = statfsSync(config.dataDir);
        const free = disk.bavail * disk.bsize;
        return free < config.minFreeDiskBytes
          ? `only ${Math.round(free / 1024 ** 2)} MB free, below MIN_FREE_DISK_BYTES`
          : undefined;
      },
    ]);
  }
  if (role === 'worker' || role === 'all') {
    checks.push([
      'ffmpeg',
      () => {
        if (!ffmpeg || Date.now() - ffmpeg.at > FFMPEG_CHECK_MS)
          ffmpeg = { problem: checkFfmpeg(config), at: Date.now() };
        return ffmpeg.problem;
      },
    ]);
  }
  if (role === 'all') {
    checks.push([
      'worker',
      async () => {
        const silent = await sinceLastWorkerBeat(db);
        if (silent === undefined) return 'no job worker has reported yet';
        return silent > allowedSilence(config)
          ? `no job worker reported in the last ${Math.round(silent / 1000)} s`
          : undefined;
      },
    ]);
  }
  if (role === 'worker') {
    checks.push([
      'worker',
      async () => {
        // This host's workers (a worker's id carries its host name), by the database clock.
        const rows = await db
          .select({ owner: workers.owner, ago: sql<number>`${nowMs(db)} - ${workers.beatAt}` })
          .from(workers);
        const mine = rows.filter((row) => row.owner.startsWith(`worker-${HOST}-`));
        if (mine.length === 0) return `no job worker of this host (${HOST}) has reported`;
        const ago = Math.min(...mine.map((row) => Number(row.ago)));
        return ago > allowedSilence(config)
          ? `this host's worker last reported ${Math.round(ago / 1000)} s ago`
          : undefined;
      },
    ]);
  }

  return async function run(): Promise<Check[]> {
    const results: Check[] = [];
    for (const [name, probe] of checks) {
      try {
        const problem = await probe();
        results.push(problem ? { name, ok: false, detail: problem } : { name, ok: true });
      } catch (error) {
        results.push({ name, ok: false, detail: (error as Error).message });
      }
    }
    return results;
  };
}

const liveJson = z.object({ ok: z.boolean(), version: z.string(), role: z.string() });
const readyJson = liveJson.extend({
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
});

export const describeFailing = (results: Check[]) =>
  `Not ready: ${results
    .filter((check) => !check.ok)
    .map((check) => `${check.name} (${check.detail})`)
    .join('; ')}.`;

/**
 * `/api/health` answers as before; `/live` says the process answers; `/ready` says whether this process can do its
 * role's work (see readinessChecks). 503 names every failing check.
 */
export function healthRoutes(deps: HealthDeps) {
  const { db } = deps;
  const checks = readinessChecks(deps.role ?? 'all', deps);

  return new Hono<AppEnv>()
    .get('/', answers({ 200: z.object({ ok: z.literal(true) }) }), async (c) => {
      await db.select({ n: sql<number>`count(*)` }).from(workers);
      return c.json({ ok: true });
    })
    .get('/live', answers({ 200: liveJson }), (c) => c.json({ ok: true, version: VERSION, role: deps.role ?? 'all' }))
    .get(
      '/ready',
      answers({ 200: readyJson }, { description: '503 with the same body, and the error shape, when a check fails.' }),
      async (c) => {
        const results = await checks();
        const failing = results.filter((check) => !check.ok);
        const body = { ok: failing.length === 0, version: VERSION, role: deps.role ?? 'all', checks: results };
        if (failing.length === 0) return c.json(body);
        const message = describeFailing(results);
        return c.json({ ...body, error: message, message, code: 'not_ready' }, 503);
      },
    );
}
