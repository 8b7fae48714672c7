import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { nowMs } from '../db/dialect';
import { type Download, downloads, type Video } from '../db/schema';
import { transaction } from '../db/transaction';
import { enqueueJob, holdsLease } from '../jobs/jobs';
import type { JobHandler } from '../jobs/runner';
import type { JobChange } from '../jobs/types';
import { newId } from '../lib/ids';
import { downloadKey, downloadScratchDir, mediaKey, parseMediaPath, videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { runTool } from './ffmpeg';
import type { Plan } from './ladder';
import { getVideo, readPlan } from './state';

/**
 * Offline copies (docs/offline.md): one rung of a ready video remuxed into a plain MP4 (`-c copy`, no re-encode,
 * `+faststart`), made on demand by a `download` job and kept in storage beside the video's HLS files. The download
 * row's status is a projection of that job, written in the job's transactions (`projectDownload`).
 */

/** The tallest rung an offline copy may be made of (its short side): phone-sized, a few MB a minute. */
export const DOWNLOAD_SHORT_MAX = 480;
const ATTEMPTS = 3;

const shortSide = (rung: Plan['rungs'][number]) => Math.min(rung.width, rung.height);

/** The rung an offline copy is made of: the largest with a short side of at most 480 (360p), else the smallest. */
export function downloadRung(plan: Plan): number {
  let chosen = -1;
  plan.rungs.forEach((rung, index) => {
    if (shortSide(rung) > DOWNLOAD_SHORT_MAX) return;
    if (chosen < 0 || shortSide(rung) > shortSide(plan.rungs[chosen] as Plan['rungs'][number])) chosen = index;
  });
  if (chosen >= 0) return chosen;
  plan.rungs.forEach((rung, index) => {
    if (chosen < 0 || shortSide(rung) < shortSide(plan.rungs[chosen] as Plan['rungs'][number])) chosen = index;
  });
  return Math.max(0, chosen);
}

/** The offline copy of a video's download rung, if one was ever asked for. */
export async function downloadOf(db: Db, video: Video): Promise<Download | undefined> {
  const [row] = await db
    .select()
    .from(downloads)
    .where(and(eq(downloads.videoId, video.id), eq(downloads.rung, downloadRung(readPlan(video)))))
    .limit(1);
  return row;
}

/**
 * Finds the offline copy of a ready video, or starts making it (a row and its job, in one transaction). A failed
 * copy, or a ready one whose file is gone, is made again. Two requests at once make one row (its unique index).
 */
export async function requestDownload(db: Db, storage: Storage, video: Video): Promise<Download> {
  const rung = downloadRung(readPlan(video));
  const existing = await downloadOf(db, video);
  if (existing?.status === 'ready' && (await storage.stat(downloadKey(video.id, existing.id)))) return existing;
  if (existing && (existing.status === 'queued' || existing.status === 'preparing')) return existing;
  return transaction(db, async (tx) => {
    if (existing) {
      // Failed, or ready with its file gone: again, under the same row (only a finished run wrote that key).
      const [again] = await tx
        .update(downloads)
        .set({ status: 'queued', progress: 0, bytes: null, error: null, finishedAt: null })
        .where(and(eq(downloads.id, existing.id), eq(downloads.status, existing.status)))
        .returning();
      if (!again) return (await downloadOf(tx, video)) as Download;
      await enqueueJob(tx, 'download', { downloadId: again.id }, { subjectId: again.id, maxAttempts: ATTEMPTS });
      return again;
    }
    const [made] = await tx
      .insert(downloads)
      .values({ id: newId(), videoId: video.id, rung, status: 'queued' })
      .onConflictDoNothing()
      .returning();
    if (!made) return (await downloadOf(tx, video)) as Download;
    await enqueueJob(tx, 'download', { downloadId: made.id }, { subjectId: made.id, maxAttempts: ATTEMPTS });
    return made;
  });
}

/** What a finished download job hands to its projection. */
export type DownloadResult = { bytes: number };

/** The download row's side of a change of its job; `tx` is the job's transaction. */
export async function projectDownload(tx: Db, id: string, change: JobChange) {
  const row = eq(downloads.id, id);
  switch (change.to) {
    case 'running':
      await tx.update(downloads).set({ status: 'preparing', progress: 0 }).where(row);
      return;
    case 'done': {
      const result = change.result as DownloadResult | undefined;
      await tx
        .update(downloads)
        .set({ status: 'ready', progress: 100, bytes: result?.bytes ?? null, error: null, finishedAt: nowMs(tx) })
        .where(row);
      return;
    }
    case 'queued':
      await tx
        .update(downloads)
        .set({ status: 'queued', progress: 0, ...(change.error ? { error: change.error } : {}) })
        .where(row);
      return;
    case 'failed':
      await tx
        .update(downloads)
        .set({ status: 'failed', error: change.error, finishedAt: nowMs(tx) })
        .where(row);
      return;
    case 'cancelled':
      await tx
        .update(downloads)
        .set({ status: 'failed', error: change.reason, finishedAt: nowMs(tx) })
        .where(row);
      return;
  }
}

/** The init file and segments of a rung playlist, as our own media files (anything else is refused). */
export function rungFiles(playlist: string, rung: number) {
  const names: string[] = [];
  for (const line of playlist.split('\n')) {
    const map = /^#EXT-X-MAP:URI="([^"]+)"/.exec(line);
    const name = map ? map[1] : line.startsWith('#') ? '' : line.trim();
    if (!name) continue;
    const file = parseMediaPath(`${rung}/${name}`);
    if (!file || file === 'master' || (file.kind !== 'init' && file.kind !== 'segment')) {
      throw new Error(`Unexpected file ${JSON.stringify(name)} in the rung playlist.`);
    }
    names.push(name);
  }
  return names.map(
    (name) => parseMediaPath(`${rung}/${name}`) as Exclude<ReturnType<typeof parseMediaPath>, 'master' | undefined>,
  );
}

/** Reads a stored file whole (a segment is a few hundred KB). */
async function readStored(storage: Storage, key: string): Promise<Uint8Array> {
  const body = await storage.get(key);
  if (!body) throw new Error(`A file of the video is missing (${key}).`);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/**
 * The `download` job: joins the rung's init file and segments (fragmented MP4 pieces, so their bytes one after the
 * other are one fragmented MP4), remuxes that with ffmpeg `-c copy -movflags +faststart` into a plain MP4 any player
 * and phone opens, and puts it in storage. Nothing is encoded: the picture and sound are the rung's own.
 */
export function downloadHandler(deps: {
  config: Config;
  db: Db;
  storage: Storage;
}): JobHandler<{ downloadId: string }, DownloadResult> {
  const { config, db, storage } = deps;
  return {
    async run({ downloadId }, context) {
      const [row] = await db.select().from(downloads).where(eq(downloads.id, downloadId)).limit(1);
      if (!row) return { bytes: 0 };
      const video = await getVideo(db, row.videoId);
      if (video?.status !== 'ready') throw new Error('The video is not ready to be downloaded.');
      const playlist = new TextDecoder().decode(
        await readStored(storage, mediaKey(video.id, { kind: 'playlist', rung: row.rung })),
      );
      const files = rungFiles(playlist, row.rung);
      const dir = downloadScratchDir(config.scratchDir, context.attempt);
      mkdirSync(dir, { recursive: true });
      try {
        const joined = join(dir, 'joined.mp4');
        const writer = Bun.file(joined).writer();
        let lastShown = 0;
        for (const [index, file] of files.entries()) {
          if (context.signal.aborted) throw new Error('Stopped.');
          writer.write(await readStored(storage, mediaKey(video.id, file)));
          const progress = Math.floor(((index + 1) / files.length) * 80);
          if (progress >= lastShown + 10) {
            lastShown = progress;
            await db
              .update(downloads)
              .set({ progress })
              .where(and(eq(downloads.id, row.id), eq(downloads.status, 'preparing')));
          }
        }
        await writer.end();
        const output = join(dir, 'lecture.mp4');
        const remux = await runTool(
          [
            config.ffmpegPath,
            ...['-v', 'error', '-nostdin', '-y', '-i', joined, '-map', '0', '-c', 'copy'],
            ...['-movflags', '+faststart', '-f', 'mp4', output],
          ],
          { signal: context.signal },
        );
        if (remux.exitCode !== 0) throw new Error(`ffmpeg could not remux the video: ${remux.stderr.slice(-500)}`);
        const bytes = statSync(output).size;
        // A run that lost its job (cancelled, taken back) publishes nothing.
        if (!(await holdsLease(db, context.job.id, context.lease))) throw new Error('Stopped.');
        // Nor one whose row went meanwhile (the video was transcoded again or deleted): its file would name no row.
        const [still] = await db.select({ id: downloads.id }).from(downloads).where(eq(downloads.id, row.id)).limit(1);
        if (!still) return { bytes: 0 };
        await storage.putFile(downloadKey(video.id, row.id), output);
        return { bytes };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** How many bytes the rung's files take (what an offline save through the service worker downloads). */
export async function rungBytes(storage: Storage, videoId: string, rung: number) {
  let bytes = 0;
  for (const file of await storage.listFiles(`${videoPrefix(videoId)}/${rung}`)) bytes += file.size;
  return bytes;
}
