import { rmSync } from 'node:fs';
import { and, eq, exists, inArray, lt, notExists } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { lectures, videos } from '../db/schema';
import type { JobsClient } from '../jobs/client';
import { scratchDir, sourceKey, videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';

export type MediaDeps = { config: Config; db: Db; storage: Storage; jobs: JobsClient };

/** Uploads that were never attached to a lecture are removed after a day. */
export const ORPHAN_VIDEO_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the videos no lecture points to any more (after a lecture or class is deleted or re-pointed):
 * the row first, then its job and, with the delete committed, its files.
 */
export async function deleteUnreferencedVideos(deps: MediaDeps, ids: (string | null)[]) {
  const { db } = deps;
  const candidates = [...new Set(ids.filter((id): id is string => id !== null))];
  if (candidates.length === 0) return;
  const removed = await db
    .delete(videos)
    .where(
      and(
        inArray(videos.id, candidates),
        notExists(db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videos.id))),
      ),
    )
    .returning({ id: videos.id });
  for (const { id } of removed) await removeVideoFiles(deps, id);
}

/** Stops the video's job and removes its files: finished ones, the original, and the scratch folder. */
export async function removeVideoFiles(deps: Omit<MediaDeps, 'db'>, videoId: string) {
  await deps.jobs.cancel(videoId, 'The video was deleted.');
  await deps.storage.deletePrefix(videoPrefix(videoId));
  await deps.storage.delete(sourceKey(videoId));
  rmSync(scratchDir(deps.config.scratchDir, videoId), { recursive: true, force: true });
}

/** Whether a lecture shows the video. */
export async function shownInLecture(db: Db, videoId: string) {
  const [row] = await db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videoId)).limit(1);
  return row !== undefined;
}

/** Of these videos, the ready ones a lecture shows: their originals are no longer needed (none is trimmed now). */
export async function shownReadyVideoIds(db: Db, ids: string[]) {
  if (ids.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(
      and(
        inArray(videos.id, ids),
        eq(videos.status, 'ready'),
        exists(db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videos.id))),
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** Videos uploaded over a day ago that no lecture shows. */
export async function orphanVideoIds(db: Db, now = Date.now()) {
  const rows = await db
    .select({ id: videos.id })
    .from(videos)
    .where(
      and(
        lt(videos.createdAt, now - ORPHAN_VIDEO_MS),
        notExists(db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videos.id))),
      ),
    );
  return rows.map((row) => row.id);
}
