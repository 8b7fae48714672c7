import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { JobHandler } from '../jobs/runner';
import { scratchDir, sourceKey, videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { masterPlaylist, measureRungs, readRungPlaylist } from './master-playlist';
import {
  getVideo,
  markAttemptFailed,
  markFirstPlayable,
  markPosterReady,
  markProcessing,
  markReady,
  markStopped,
  readPlan,
  recordFfmpegPid,
  reportProgress,
} from './state';
import { makePoster, runTranscode } from './transcode';

const PROGRESS_WRITE_MS = 1000;

/** Kills an ffmpeg left running by a worker that died with kill -9, if that pid is still our ffmpeg for this video. */
function stopOrphanFfmpeg(pid: number, videoId: string) {
  try {
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('ffmpeg') && commandLine.includes(videoId)) process.kill(pid, 'SIGKILL');
  } catch {
    // gone already, or not Linux: nothing to stop
  }
}

/**
 * The `transcode` job: the HLS ladder and poster into a local scratch folder (served while it grows),
 * handed to storage when complete.
 */
export function transcodeHandler(deps: { config: Config; db: Db; storage: Storage }): JobHandler {
  const { config, db, storage } = deps;
  return {
    async run({ videoId }: { videoId: string }, { job, signal, log }) {
      const video = await getVideo(db, videoId);
      if (!video) return; // deleted while it waited
      if (video.ffmpegPid) stopOrphanFfmpeg(video.ffmpegPid, video.id);
      await markProcessing(db, video.id, job.attempts);
      const source = await storage.localCopy(sourceKey(video.id));
      if (!source) throw new Error('The uploaded original is missing. Please upload the video again.');
      const plan = readPlan(video);
      const work = scratchDir(config.dataDir, video.id);
      rmSync(work, { recursive: true, force: true });
      mkdirSync(work, { recursive: true });
      const started = Date.now();
      log(`[media] transcoding ${video.id} (attempt ${job.attempts}, ${plan.rungs.map((r) => r.name).join('/')})`);

      // The poster is made once the first segment is out, not before it: decoding the source for it would slow
      // the ladder's start, and students can press Play before they see the poster.
      let poster: Promise<unknown> | undefined;
      const makeThePoster = () => {
        poster ??= makePoster(config, plan, source, work, video.durationMs).then((made) =>
          made ? markPosterReady(db, video.id) : undefined,
        );
      };
      let lastWrite = 0;
      let eta: { seconds: number; at: number } | null = null;
      let firstPlayable = false;
      const writes: Promise<unknown>[] = [];
      const result = await runTranscode(
        config,
        plan,
        source,
        work,
        ({ outTimeMs }) => {
          const now = Date.now();
          if (!firstPlayable && plan.rungs.every((_, i) => readRungPlaylist(work, i).length > 0)) {
            firstPlayable = true;
            writes.push(markFirstPlayable(db, video.id, now));
            makeThePoster();
          }
          if (now - lastWrite < PROGRESS_WRITE_MS) return;
          lastWrite = now;
          const progress = Math.min(99, (outTimeMs / video.durationMs) * 100);
          const elapsed = (now - started) / 1000;
          const measured = progress > 1 ? (elapsed / progress) * (100 - progress) : null;
          eta = measured === null ? null : { seconds: steadyEta(eta, measured, now), at: now };
          writes.push(reportProgress(db, video.id, Math.round(progress * 10) / 10, eta && Math.round(eta.seconds)));
        },
        signal,
        (pid) => writes.push(recordFfmpegPid(db, video.id, pid)),
      );
      await Promise.all(writes);
      if (result.ok && !signal.aborted) makeThePoster();
      await poster;
      if (signal.aborted) throw new Error('stopped');
      if (!result.ok) throw new Error(result.reason);
      const measured = { ...plan, rungs: measureRungs(work, plan) };
      writeFileSync(join(work, 'master.m3u8'), masterPlaylist(measured.rungs, measured.fps, measured.hasAudio));
      await storage.putFolder(videoPrefix(video.id), work);
      await markReady(db, video.id, measured);
      if (!config.keepOriginals) await storage.delete(sourceKey(video.id));
      log(`[media] ${video.id} ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    async failed({ videoId }: { videoId: string }, reason, final) {
      rmSync(scratchDir(config.dataDir, videoId), { recursive: true, force: true });
      await markAttemptFailed(db, videoId, reason, final);
    },
    async interrupted({ videoId }: { videoId: string }, cancelled) {
      rmSync(scratchDir(config.dataDir, videoId), { recursive: true, force: true });
      if (!cancelled) await markStopped(db, videoId);
    },
  };
}

/**
 * The time left as people read it: it counts down with the clock and leans a third of the way toward each new
 * measurement, and it only goes up when the work is clearly slower than shown (half as long again: another job,
 * a busy machine), so it does not jump back and forth with every progress line.
 */
export function steadyEta(previous: { seconds: number; at: number } | null, measured: number, now: number): number {
  if (!previous) return measured;
  const counted = Math.max(0, previous.seconds - (now - previous.at) / 1000);
  const leaned = counted + (measured - counted) / 3;
  return leaned > counted && measured < counted * 1.5 ? counted : leaned;
}
