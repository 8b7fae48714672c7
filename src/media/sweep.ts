import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { jobs, videos } from '../db/schema';
import { scratchRoot, tempDir, UPLOADS_PREFIX, VIDEOS_PREFIX } from '../storage/keys';
import { deleteUnreferencedVideos, type MediaDeps, orphanVideoIds } from './videos';

/** A file in tmp/ untouched this long belongs to no upload in progress. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** An original younger than this may be an upload whose row is being written right now. */
const FRESH_UPLOAD_MS = 60 * 60 * 1000;

const idOf = (name: string) => name.replace(/\.source$/, '');

/**
 * The periodic cleanup (run by the job worker, at start and every 15 minutes): videos never attached to a
 * lecture within a day, stored files no video row names, scratch folders no live job writes, stale temp files.
 * Returns how many things it removed.
 */
export async function sweepMedia(deps: MediaDeps, now = Date.now()): Promise<number> {
  const { db, storage, config } = deps;
  let removed = 0;
  const orphans = await orphanVideoIds(db, now);
  await deleteUnreferencedVideos(deps, orphans);
  removed += orphans.length;

  const known = async (ids: string[]) =>
    new Set(
      ids.length
        ? (await db.select({ id: videos.id }).from(videos).where(inArray(videos.id, ids))).map((row) => row.id)
        : [],
    );
  const videoNames = await storage.list(VIDEOS_PREFIX);
  const videoIds = await known(videoNames);
  for (const name of videoNames) {
    if (videoIds.has(name)) continue;
    await storage.deletePrefix(`${VIDEOS_PREFIX}/${name}`);
    removed++;
  }
  const uploadNames = await storage.list(UPLOADS_PREFIX);
  const uploadIds = await known(uploadNames.map(idOf));
  for (const name of uploadNames) {
    if (uploadIds.has(idOf(name))) continue;
    const stat = await storage.stat(`${UPLOADS_PREFIX}/${name}`);
    if (stat && now - stat.modifiedAt < FRESH_UPLOAD_MS) continue;
    await storage.delete(`${UPLOADS_PREFIX}/${name}`);
    removed++;
  }

  // Scratch folders of jobs that no live worker holds (a worker that died left them).
  const scratch = scratchRoot(config.dataDir);
  const scratchNames = existsSync(scratch) ? readdirSync(scratch) : [];
  if (scratchNames.length) {
    const live = new Set(
      (
        await db
          .select({ subjectId: jobs.subjectId })
          .from(jobs)
          .where(and(eq(jobs.state, 'running'), gt(jobs.leaseUntil, now), inArray(jobs.subjectId, scratchNames)))
      ).map((row) => row.subjectId),
    );
    for (const name of scratchNames) {
      if (live.has(name)) continue;
      rmSync(join(scratch, name), { recursive: true, force: true });
      removed++;
    }
  }

  const temp = tempDir(config.dataDir);
  for (const name of existsSync(temp) ? readdirSync(temp) : []) {
    const path = join(temp, name);
    try {
      if (now - statSync(path).mtimeMs < STALE_TEMP_MS) continue;
    } catch {
      continue;
    }
    rmSync(path, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
