import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { videos } from '../db/schema';
import { sourceFile, tempDir, uploadsDir, videoDir, videosDir, workDir } from './paths';

/** Removes every file of a video: its HLS folder, its work folder and its original. */
export function removeVideoFiles(dataDir: string, videoId: string) {
  rmSync(videoDir(dataDir, videoId), { recursive: true, force: true });
  rmSync(workDir(dataDir, videoId), { recursive: true, force: true });
  rmSync(sourceFile(dataDir, videoId), { force: true });
}

/**
 * At start, before any job runs: removes half-written uploads, work folders (their jobs start over) and
 * any file that no video row points to.
 */
export function sweepMediaFiles(db: Db, dataDir: string): number {
  let removed = 0;
  rmSync(tempDir(dataDir), { recursive: true, force: true });
  const known = (ids: string[]) =>
    new Set(
      ids.length
        ? db
            .select({ id: videos.id })
            .from(videos)
            .where(inArray(videos.id, ids))
            .all()
            .map((row) => row.id)
        : [],
    );
  const list = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

  const videoEntries = list(videosDir(dataDir));
  const videoIds = known(videoEntries.map((name) => name.replace(/\.work$/, '')));
  for (const name of videoEntries) {
    if (name.endsWith('.work') || !videoIds.has(name)) {
      rmSync(join(videosDir(dataDir), name), { recursive: true, force: true });
      removed++;
    }
  }
  const uploadEntries = list(uploadsDir(dataDir));
  const uploadIds = known(uploadEntries.map((name) => name.replace(/\.source$/, '')));
  for (const name of uploadEntries) {
    if (!name.endsWith('.source') || !uploadIds.has(name.replace(/\.source$/, ''))) {
      rmSync(join(uploadsDir(dataDir), name), { force: true });
      removed++;
    }
  }
  return removed;
}
