import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, lt, notExists } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { lectures, type Video, videos } from '../db/schema';
import { removeVideoFiles, sweepMediaFiles } from './files';
import { masterPlaylist, measureRungs, readRungPlaylist } from './master-playlist';
import { sourceFile, videoDir, workDir } from './paths';
import {
  claimNextVideo,
  markAttemptFailed,
  markFirstPlayable,
  markPosterReady,
  markReady,
  readPlan,
  recordFfmpegPid,
  reportProgress,
  requeueInterrupted,
  requeueStopped,
} from './state';
import { makePoster, runTranscode } from './transcode';

const PROGRESS_WRITE_MS = 1000;
const POLL_MS = 5000;
/** Uploads that were never attached to a lecture are removed after a day. */
export const ORPHAN_VIDEO_MS = 24 * 60 * 60 * 1000;

export type MediaWorker = ReturnType<typeof createMediaWorker>;

/** Kills an ffmpeg left running by a server that died with kill -9, if that pid is still our ffmpeg for this video. */
function stopOrphanFfmpeg(pid: number, videoId: string) {
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('ffmpeg') && commandLine.includes(videoId)) process.kill(pid, 'SIGKILL');
  } catch {
    // gone already, or not Linux: nothing to stop
  }
}

/** The single in-process transcoding worker: takes queued videos from SQLite, TRANSCODE_CONCURRENCY at a time. */
export function createMediaWorker(deps: { config: Config; db: Db; log?: (line: string) => void }) {
  const { config, db } = deps;
  const log = deps.log ?? ((line: string) => console.log(line));
  const running = new Map<string, { controller: AbortController; done: Promise<void>; cancelled: boolean }>();
  let stopped = true;
  let timer: ReturnType<typeof setInterval> | undefined;

  async function process(video: Video, controller: AbortController) {
    const plan = readPlan(video);
    const source = sourceFile(config.dataDir, video.id);
    const work = workDir(config.dataDir, video.id);
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const started = Date.now();
    log(`[media] transcoding ${video.id} (attempt ${video.attempts}, ${plan.rungs.map((r) => r.name).join('/')})`);

    if (await makePoster(config, plan, source, work, video.durationMs)) markPosterReady(db, video.id);
    let lastWrite = 0;
    let firstPlayable = false;
    const result = await runTranscode(
      config,
      plan,
      source,
      work,
      ({ outTimeMs }) => {
        const now = Date.now();
        if (!firstPlayable && plan.rungs.every((_, i) => readRungPlaylist(work, i).length > 0)) {
          firstPlayable = true;
          markFirstPlayable(db, video.id, now);
        }
        if (now - lastWrite < PROGRESS_WRITE_MS) return;
        lastWrite = now;
        const progress = Math.min(99, (outTimeMs / video.durationMs) * 100);
        const elapsed = (now - started) / 1000;
        const eta = progress > 1 ? Math.round((elapsed / progress) * (100 - progress)) : null;
        reportProgress(db, video.id, Math.round(progress * 10) / 10, eta, now);
      },
      controller.signal,
      (pid) => recordFfmpegPid(db, video.id, pid),
    );
    recordFfmpegPid(db, video.id, null);

    if (controller.signal.aborted) {
      rmSync(work, { recursive: true, force: true });
      return;
    }
    if (!result.ok) {
      rmSync(work, { recursive: true, force: true });
      const state = markAttemptFailed(db, video, result.reason);
      log(`[media] ${video.id} failed (${state}): ${result.reason}`);
      return;
    }
    const measured = { ...plan, rungs: measureRungs(work, plan) };
    writeFileSync(join(work, 'master.m3u8'), masterPlaylist(measured.rungs, measured.fps, measured.hasAudio));
    const final = videoDir(config.dataDir, video.id);
    rmSync(final, { recursive: true, force: true });
    renameSync(work, final);
    markReady(db, video.id, measured);
    if (!config.keepOriginals) rmSync(source, { force: true });
    log(`[media] ${video.id} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  function wake() {
    while (!stopped && running.size < config.transcodeConcurrency) {
      const video = claimNextVideo(db);
      if (!video) return;
      const controller = new AbortController();
      const entry = { controller, cancelled: false, done: Promise.resolve() };
      entry.done = process(video, controller)
        .catch((error) => {
          log(`[media] ${video.id} crashed: ${(error as Error).message}`);
          rmSync(workDir(config.dataDir, video.id), { recursive: true, force: true });
          markAttemptFailed(db, video, 'Processing failed unexpectedly.');
        })
        .finally(() => {
          running.delete(video.id);
          if (controller.signal.aborted && !entry.cancelled) requeueStopped(db, video.id);
          if (entry.cancelled) removeVideoFiles(config.dataDir, video.id);
          wake();
        });
      running.set(video.id, entry);
    }
  }

  /** Removes uploads that were never attached to a lecture within a day. */
  function removeOrphans(now = Date.now()) {
    const orphans = db
      .select({ id: videos.id })
      .from(videos)
      .where(
        and(
          lt(videos.createdAt, now - ORPHAN_VIDEO_MS),
          notExists(db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, videos.id))),
        ),
      )
      .all();
    for (const { id } of orphans) deleteVideo(id);
  }

  /** Deletes a video's row and, after that commits, its files; stops its job first if it is running. */
  function deleteVideo(id: string) {
    const job = running.get(id);
    db.delete(videos).where(eq(videos.id, id)).run();
    if (job) {
      job.cancelled = true;
      job.controller.abort();
    } else {
      removeVideoFiles(config.dataDir, id);
    }
  }

  return {
    start() {
      stopped = false;
      const requeued = requeueInterrupted(db, stopOrphanFfmpeg);
      if (requeued) log(`[media] taking up ${requeued} interrupted video job(s) again`);
      removeOrphans();
      const swept = sweepMediaFiles(db, config.dataDir);
      if (swept) log(`[media] removed ${swept} leftover media file(s)`);
      timer = setInterval(wake, POLL_MS);
      wake();
    },
    wake,
    deleteVideo,
    /** Deletes the videos no lecture points to any more (after a lecture or class is deleted or re-pointed). */
    deleteUnreferenced(ids: (string | null)[]) {
      for (const id of ids) {
        if (!id) continue;
        const used = db.select({ id: lectures.id }).from(lectures).where(eq(lectures.videoId, id)).get();
        if (!used) deleteVideo(id);
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      const jobs = [...running.values()];
      for (const job of jobs) job.controller.abort();
      await Promise.all(jobs.map((job) => job.done));
    },
    isIdle: () => running.size === 0,
  };
}
