import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { transaction } from '../db/transaction';
import type { AppDeps } from '../deps';
import { sinceLastWorkerBeat } from '../jobs/jobs';
import { heartbeatMs } from '../jobs/runner';
import { newId } from '../lib/ids';
import { VERSION } from '../lib/version';
import { checkFfmpeg } from '../media/ffmpeg';

const FFMPEG_CHECK_MS = 60_000;

type Check = { name: string; ok: boolean; detail?: string };

/**
 * `/api/health` answers as before; `/live` says the process answers; `/ready` says whether it can do its work:
 * the database takes a write, the data folder takes a file and has room, ffmpeg (5.1 or newer) is there, and a job
 * worker reported alive recently. 503 names every failing check.
 */
export function healthRoutes(deps: AppDeps) {
  const { db, config } = deps;
  let ffmpeg: { problem: string | undefined; at: number } | undefined;

  async function checks(): Promise<Check[]> {
    const results: Check[] = [];
    const run = async (name: string, probe: () => Promise<string | undefined> | string | undefined) => {
      try {
        const problem = await probe();
        results.push(problem ? { name, ok: false, detail: problem } : { name, ok: true });
      } catch (error) {
        results.push({ name, ok: false, detail: (error as Error).message });
      }
    };
    await run('database', async () => {
      // A write lock proves the file is writable; the empty transaction changes nothing.
      await transaction(db, async (tx) => {
        await tx.run(sql`select 1`);
      });
      return undefined;
    });
    await run('data_folder', () => {
      const probe = join(config.dataDir, `.ready-${newId()}`);
      writeFileSync(probe, 'ok');
      rmSync(probe, { force: true });
      const disk = statfsSync(config.dataDir);
      const free = disk.bavail * disk.bsize;
      return free < config.minFreeDiskBytes
        ? `only ${Math.round(free / 1024 ** 2)} MB free, below MIN_FREE_DISK_BYTES`
        : undefined;
    });
    await run('ffmpeg', () => {
      if (!ffmpeg || Date.now() - ffmpeg.at > FFMPEG_CHECK_MS)
        ffmpeg = { problem: checkFfmpeg(config), at: Date.now() };
      return ffmpeg.problem;
    });
    await run('worker', async () => {
      const silent = await sinceLastWorkerBeat(db);
      const allowed = 3 * heartbeatMs(config.jobLeaseMs) + 5_000;
      if (silent === undefined) return 'no job worker has reported yet';
      return silent > allowed ? `no job worker reported in the last ${Math.round(silent / 1000)} s` : undefined;
    });
    return results;
  }

  return new Hono()
    .get('/', async (c) => {
      await db.get(sql`select 1`);
      return c.json({ ok: true });
    })
    .get('/live', (c) => c.json({ ok: true, version: VERSION }))
    .get('/ready', async (c) => {
      const results = await checks();
      const failing = results.filter((check) => !check.ok);
      const body = { ok: failing.length === 0, version: VERSION, checks: results };
      if (failing.length === 0) return c.json(body);
      const message = `Not ready: ${failing.map((check) => `${check.name} (${check.detail})`).join('; ')}.`;
      return c.json({ ...body, error: message, message, code: 'not_ready' }, 503);
    });
}
