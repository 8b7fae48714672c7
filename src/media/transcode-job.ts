import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { nowMs } from '../db/dialect';
import { jobs, type Video } from '../db/schema';
import { holdsLease } from '../jobs/jobs';
import type { JobContext, JobHandler } from '../jobs/runner';
import { scratchDir, scratchRoot, sourceKey, videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { masterPlaylist, measureRungs } from './master-playlist';
import { createPublisher } from './publish';
import { getVideo, markFirstPlayable, markPosterReady, readPlan, reportProgress, type TranscodeResult } from './state';
import { makePoster, runTranscode, type Trim } from './transcode';
import { shownInLecture } from './videos';

const PROGRESS_WRITE_MS = 1000;

/** The ffmpeg pid of an attempt, kept in its own scratch folder (a pid means something only on its host). */
const PID_FILE = 'ffmpeg.pid';

/**
 * Each attempt works in its own folder, named after its claim (SCRATCH_DIR/transcodes/<video>/<attempt>): a worker
 * that lost its lease removes its own folder, never the new owner's.
 */
export const attemptDir = (config: Pick<Config, 'scratchDir'>, videoId: string, attempt: string) =>
  join(scratchDir(config.scratchDir, videoId), attempt);

/** Kills an ffmpeg left running by a worker that died with kill -9, if that pid is still ffmpeg writing `folder`. */
function stopOrphanFfmpeg(folder: string) {
  try {
    const pid = Number(readFileSync(join(folder, PID_FILE), 'utf8'));
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (commandLine.includes('ffmpeg') && commandLine.includes(folder)) process.kill(pid, 'SIGKILL');
  } catch {
    // no pid written, gone already, or not Linux: nothing to stop
  }
}

/**
 * This host's attempt folders whose lease is no longer held (by the database clock): their worker died. Stops
 * their ffmpeg and removes them. Every worker runs this for its own host, at start, when it takes a job back, and
 * with its housekeeping; answers how many it removed.
 */
export async function reclaimScratch(db: Db, config: Pick<Config, 'scratchDir'>) {
  const root = scratchRoot(config.scratchDir);
  const videoIds = existsSync(root) ? readdirSync(root) : [];
  if (videoIds.length === 0) return 0;
  const live = new Set(
    (
      await db
        .select({ lease: jobs.leaseOwner })
        .from(jobs)
        .where(and(eq(jobs.state, 'running'), gt(jobs.leaseUntil, nowMs(db)), inArray(jobs.subjectId, videoIds)))
    ).map((row) => row.lease?.slice(row.lease.lastIndexOf('.') + 1)),
  );
  let removed = 0;
  for (const videoId of videoIds) {
    const folder = join(root, videoId);
    let attempts: string[];
    try {
      attempts = readdirSync(folder);
    } catch {
      continue;
    }
    for (const attempt of attempts) {
      if (live.has(attempt)) continue;
      stopOrphanFfmpeg(join(folder, attempt));
      rmSync(join(folder, attempt), { recursive: true, force: true });
      removed++;
    }
    removeIfEmpty(folder);
  }
  return removed;
}

function removeIfEmpty(folder: string) {
  try {
    rmdirSync(folder);
  } catch {
    // not empty (another attempt works there) or gone
  }
}

/** The owner's trim of the video, in seconds, or undefined for all of it. */
export const trimOf = (video: Pick<Video, 'trimStartMs' | 'trimEndMs'>): Trim | undefined =>
  video.trimStartMs !== null && video.trimEndMs !== null
    ? { startSeconds: video.trimStartMs / 1000, endSeconds: video.trimEndMs / 1000 }
    : undefined;

/** The `transcode` job's payload. */
export type TranscodePayload = { videoId: string };

/**
 * The `transcode` job: the HLS ladder and poster into this attempt's scratch folder, published to storage as
 * it comes; the video's status follows the job (src/media/state.ts).
 */
export function transcodeHandler(deps: {
  config: Config;
  db: Db;
  storage: Storage;
}): JobHandler<TranscodePayload, TranscodeResult | undefined> {
  const { config, db, storage } = deps;

  async function transcode(
    { videoId }: TranscodePayload,
    { job, signal, log, lease, takenBack }: JobContext,
    work: string,
  ): Promise<TranscodeResult | undefined> {
    const video = await getVideo(db, videoId);
    if (!video) return undefined; // deleted while it waited
    // The worker this job was taken from may have died on this host, its ffmpeg still running.
    if (takenBack) await reclaimScratch(db, config);
    // Downloaded (from S3) into the attempt's own scratch: a lost attempt's copy goes with its folder.
    const copy = await storage.localCopy(sourceKey(video.id), work);
    if (!copy) throw new Error('The uploaded original is missing. Please upload the video again.');
    try {
      return await transcodeFrom(video, copy.path, { job, signal, log, lease }, work);
    } finally {
      copy.release();
    }
  }

  async function transcodeFrom(
    video: Video,
    source: string,
    { job, signal, log, lease }: Pick<JobContext, 'job' | 'signal' | 'log' | 'lease'>,
    work: string,
  ): Promise<TranscodeResult> {
    const plan = readPlan(video);
    const trim = trimOf(video);
    mkdirSync(work, { recursive: true });
    // Files of an earlier attempt; then each finished file is published as it comes (storage/publish.ts).
    await storage.deletePrefix(videoPrefix(video.id));
    let firstPlayable = false;
    /** ffmpeg ended without its output (a round still publishing must not mark a failing run playable). */
    let ranBadly = false;
    const writes: Promise<unknown>[] = [];
    // Told as soon as a publish round makes every rung playable, and only while the run has not been stopped.
    const checkPlayable = () => {
      if (firstPlayable || ranBadly || signal.aborted || !publisher.playable()) return;
      firstPlayable = true;
      writes.push(markFirstPlayable(db, video.id, lease));
      makeThePoster();
    };
    const publisher = createPublisher(storage, video.id, work, plan.rungs.length, checkPlayable);
    const started = Date.now();
    log(`[media] transcoding ${video.id} (attempt ${job.attempts}, ${plan.rungs.map((r) => r.name).join('/')})`);

    // The poster is made once the first segment is out, not before it: decoding the source for it would slow
    // the ladder's start, and students can press Play before they see the poster.
    let poster: Promise<unknown> | undefined;
    const makeThePoster = () => {
      poster ??= makePoster(config, plan, source, work, video.durationMs, trim).then(async (made) => {
        if (!made) return;
        await publisher.publishFile('poster.jpg');
        await markPosterReady(db, video.id, lease);
      });
    };
    let lastWrite = 0;
    let eta: { seconds: number; at: number } | null = null;
    // Where the measured speed starts: the first progress line, so ffmpeg's start-up is not counted as slowness.
    let firstProgress: { at: number; outTimeMs: number } | null = null;
    let etaMeasured = false;
    const result = await runTranscode(
      config,
      plan,
      source,
      work,
      ({ outTimeMs }) => {
        const now = Date.now();
        // A run that was stopped (cancelled, lease lost) publishes nothing more.
        if (signal.aborted) return;
        publisher.kick();
        checkPlayable();
        firstProgress ??= { at: now, outTimeMs };
        if (now - lastWrite < PROGRESS_WRITE_MS) return;
        lastWrite = now;
        const progress = Math.min(99, (outTimeMs / video.durationMs) * 100);
        const next = etaFrom({ durationMs: video.durationMs, outTimeMs, first: firstProgress, now });
        // The first measurement replaces the clip-length guess outright; later ones are smoothed.
        eta = { seconds: next.measured && !etaMeasured ? next.seconds : steadyEta(eta, next.seconds, now), at: now };
        etaMeasured ||= next.measured;
        writes.push(reportProgress(db, video.id, lease, Math.round(progress * 10) / 10, Math.round(eta.seconds)));
      },
      signal,
      (pid) => writeFileSync(join(work, PID_FILE), String(pid)),
      trim ? { frames: 'lecture', trim } : undefined,
    );
    ranBadly = !result.ok;
    await Promise.all(writes);
    if (result.ok && !signal.aborted) makeThePoster();
    await poster;
    await publisher.settle();
    // A round that ended after ffmpeg did may have marked the first segment.
    await Promise.all(writes);
    await poster;
    if (signal.aborted) throw new Error('stopped');
    if (!result.ok) throw new Error(result.reason);
    // The rate the rungs were encoded at (4 for slides), so the master's FRAME-RATE tells players the truth.
    const measured = { ...plan, fps: result.fps, rungs: measureRungs(work, plan, publisher.sizes) };
    // A run that lost its lease publishes nothing more: the files are the new owner's now.
    if (!(await holdsLease(db, job.id, lease))) throw new Error('stopped: lease lost');
    await publisher.finish(masterPlaylist(measured.rungs, measured.fps, measured.hasAudio));
    const told = result.stillBy ? `, told by its ${result.stillBy}` : '';
    log(`[media] ${video.id} ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${result.fps} fps${told}`);
    return { plan: measured };
  }

  return {
    async run(payload, context) {
      const work = attemptDir(config, payload.videoId, context.attempt);
      try {
        return await transcode(payload, context, work);
      } finally {
        // This attempt's own folder only: a new owner (after a lost lease) works in another.
        rmSync(work, { recursive: true, force: true });
        removeIfEmpty(scratchDir(config.scratchDir, payload.videoId));
      }
    },
    async finished({ videoId }) {
      // The video is ready (committed): the original is no longer needed once a lecture shows it. Until then its
      // owner may still trim it (a recording being reviewed); the sweep removes it later (sweep.ts).
      if (!config.keepOriginals && (await shownInLecture(db, videoId))) await storage.delete(sourceKey(videoId));
    },
    async failed({ videoId }, _reason, final) {
      // What was published while it ran is of no use to anyone (a retry starts over).
      if (final) await storage.deletePrefix(videoPrefix(videoId));
    },
  };
}

/** Before the speed is measured, a clip is expected to take about its own length to transcode (all rungs at once). */
export const PRIOR_SECONDS_PER_MEDIA_SECOND = 1;
/** How long the speed is watched before it replaces the clip-length guess. */
const MEASURE_MS = 1500;

/**
 * Seconds left of a transcode. From the clip's length (probed at upload) until the job has run a moment, then from
 * the speed it really goes at since its first progress line (media time done per second of wall time), so the
 * start-up of ffmpeg is never read as a slow job: a 20 s clip is never "about 5 min".
 */
export function etaFrom({
  durationMs,
  outTimeMs,
  first,
  now,
}: {
  durationMs: number;
  outTimeMs: number;
  first: { at: number; outTimeMs: number };
  now: number;
}): { seconds: number; measured: boolean } {
  const leftMs = Math.max(0, durationMs - outTimeMs);
  const watchedMs = now - first.at;
  const doneMs = outTimeMs - first.outTimeMs;
  if (watchedMs < MEASURE_MS || doneMs <= 0) {
    return { seconds: (leftMs / 1000) * PRIOR_SECONDS_PER_MEDIA_SECOND, measured: false };
  }
  return { seconds: leftMs / 1000 / (doneMs / watchedMs), measured: true };
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
