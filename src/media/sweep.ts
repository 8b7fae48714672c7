import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { inArray } from 'drizzle-orm';
import { videos } from '../db/schema';
import { slidesScratchDir, tempDir, UPLOADS_PREFIX, VIDEOS_PREFIX } from '../storage/keys';
import { deleteUnreferencedVideos, type MediaDeps, orphanVideoIds, shownReadyVideoIds } from './videos';

/** A file in tmp/ untouched this long belongs to no upload in progress. */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** An original younger than this may be an upload whose row is being written right now. */
const FRESH_UPLOAD_MS = 60 * 60 * 1000;

const idOf = (name: string) => name.replace(/\.source$/, '');

/**
 * The cluster's periodic cleanup (the `sweep` job: once every 15 minutes, whichever worker claims it): videos never
 * attached to a lecture within a day, stored files no video row names, originals of ready videos a lecture shows.
 * Returns how many things it removed.
 */
export async function sweepMedia(deps: MediaDeps, now = Date.now()): Promise<number> {
  const { db, storage } = deps;
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
  // Originals kept after their transcode for a trim (transcode-job.ts), now that a lecture shows the video.
  const done = deps.config.keepOriginals ? new Set<string>() : await shownReadyVideoIds(db, [...uploadIds]);
  for (const name of uploadNames) {
    if (done.has(idOf(name))) {
      await storage.delete(`${UPLOADS_PREFIX}/${name}`);
      removed++;
      continue;
    }
    if (uploadIds.has(idOf(name))) continue;
    const stat = await storage.stat(`${UPLOADS_PREFIX}/${name}`);
    if (stat && now - stat.modifiedAt < FRESH_UPLOAD_MS) continue;
    await storage.delete(`${UPLOADS_PREFIX}/${name}`);
    removed++;
  }

  // Scratch folders are each host's own: every worker reclaims its host's (reclaimScratch in transcode-job.ts).
  return removed;
}

/** This host's stale temp files (each worker's own chore, like its scratch folders). */
export function sweepLocalTemp(config: MediaDeps['config'], now = Date.now()): number {
  let removed = 0;
  // Stale temp files, and downloads for ffmpeg (localCopy) a killed job did not release.
  // ... and slide index folders a killed worker left (slides-job.ts).
  const temps = [
    tempDir(config.scratchDir),
    join(config.scratchDir, 'downloads'),
    slidesScratchDir(config.scratchDir),
  ].flatMap((dir) => (existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : []));
  for (const path of temps) {
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
