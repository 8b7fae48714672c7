import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type DetectedSlide, type SlidesResult, slidesOfVideo } from '../db/queries/slides';
import { holdsLease } from '../jobs/jobs';
import type { JobHandler } from '../jobs/runner';
import { newId } from '../lib/ids';
import { slidesScratchDir, slideThumbnailKey, slideThumbnailPrefix, videoPrefix } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { runTool } from './ffmpeg';
import { checkTesseract, readSlideText } from './ocr';
import { detectSlides, type Mark } from './slides';
import { getVideo, readPlan } from './state';

/** Below the transcodes' own niceness (10): detection and OCR take what the machine has left. */
export const SLIDES_NICE = 15;
export const THUMBNAIL_WIDTH = 320;

/** One HLS segment of a rung: its file name and where it starts. */
type Segment = { name: string; start: number; duration: number };
type Rung = { init: string; segments: Segment[] };

const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;

/** Reads a rung's media playlist (our own, from storage): its init file and its segments with their start times. */
export function parseRungPlaylist(text: string): Rung | undefined {
  let init: string | undefined;
  const segments: Segment[] = [];
  let duration: number | undefined;
  let start = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const map = /^#EXT-X-MAP:.*URI="([^"]+)"/.exec(line);
    if (map) init = map[1];
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    if (line && !line.startsWith('#') && duration !== undefined) {
      segments.push({ name: line, start, duration });
      start += duration;
      duration = undefined;
    }
  }
  if (!init || !SAFE_NAME.test(init) || segments.some((s) => !SAFE_NAME.test(s.name))) return undefined;
  return { init, segments };
}

async function readKey(storage: Storage, key: string): Promise<Uint8Array> {
  const body = await storage.get(key);
  if (!body) throw new Error(`A file of the video is missing (${key}).`);
  return new Response(body).bytes();
}

/**
 * The `slides` job: after a video is ready, finds its slides on the smallest rung (one cheap decode), then takes each
 * slide's settled frame from the largest rung (only the segments needed, so S3 sends little): a WebP thumbnail into
 * storage and the words Tesseract reads. The slides themselves are written by the job's projection
 * (db/queries/slides.ts) in the transaction that finishes the job.
 */
export function slidesHandler(deps: {
  config: Config;
  db: Db;
  storage: Storage;
  warn?: (line: string) => void;
}): JobHandler<{ videoId: string }, SlidesResult> {
  const { config, db, storage } = deps;
  let ocrChecked = false;
  let ocrProblem: string | undefined;
  /** Checked once per worker; a missing Tesseract is said once, and slides go on without words. */
  const ocrAvailable = () => {
    if (!ocrChecked) {
      ocrChecked = true;
      ocrProblem = checkTesseract(config);
      if (ocrProblem) deps.warn?.(`[slides] ${ocrProblem}`);
    }
    return !ocrProblem;
  };

  async function rungOf(videoId: string, rung: number): Promise<Rung> {
    const text = new TextDecoder().decode(await readKey(storage, `${videoPrefix(videoId)}/${rung}/index.m3u8`));
    const parsed = parseRungPlaylist(text);
    if (!parsed) throw new Error('The video has no playlist the slide index can read.');
    return parsed;
  }

  /** A whole rung as one fragmented MP4 (init, then every segment): what ffmpeg decodes for detection. */
  async function wholeRung(videoId: string, rung: number, file: string) {
    const { init, segments } = await rungOf(videoId, rung);
    const prefix = `${videoPrefix(videoId)}/${rung}`;
    writeFileSync(file, await readKey(storage, `${prefix}/${init}`));
    for (const segment of segments) {
      writeFileSync(file, await readKey(storage, `${prefix}/${segment.name}`), { flag: 'a' });
    }
  }

  /** Thumbnail and words of each mark, from the largest rung's segment that holds its settled frame. */
  async function framesOf(videoId: string, rung: number, marks: Mark[], work: string, signal: AbortSignal) {
    const { init, segments } = await rungOf(videoId, rung);
    const prefix = `${videoPrefix(videoId)}/${rung}`;
    const initBytes = await readKey(storage, `${prefix}/${init}`);
    const readWords = ocrAvailable();
    const made: DetectedSlide[] = [];
    let loaded: { index: number; file: string } | undefined;
    for (const mark of marks) {
      if (signal.aborted) throw new Error('stopped');
      let index = segments.findIndex((s) => mark.frameSeconds < s.start + s.duration);
      if (index < 0) index = segments.length - 1;
      const segment = segments[index];
      if (!segment) break;
      if (loaded?.index !== index) {
        const file = join(work, 'segment.mp4');
        writeFileSync(file, initBytes);
        writeFileSync(file, await readKey(storage, `${prefix}/${segment.name}`), { flag: 'a' });
        loaded = { index, file };
      }
      const id = newId();
      const picture = join(work, `${id}.png`);
      const thumbnail = join(work, `${id}.webp`);
      const offset = Math.max(0, mark.frameSeconds - segment.start).toFixed(3);
      // One decode: the full frame for Tesseract and the 320 px thumbnail.
      const grabbed = await runTool(
        [
          config.ffmpegPath,
          '-hide_banner',
          '-nostdin',
          '-v',
          'error',
          '-y',
          '-threads',
          '1',
          '-ss',
          offset,
          '-i',
          loaded.file,
          '-filter_complex',
          `[0:v]split=2[full][small];[small]scale=${THUMBNAIL_WIDTH}:-2[thumb]`,
          '-map',
          '[full]',
          '-frames:v',
          '1',
          picture,
          '-map',
          '[thumb]',
          '-frames:v',
          '1',
          '-c:v',
          'libwebp',
          '-quality',
          '75',
          thumbnail,
        ],
        { nice: SLIDES_NICE, signal },
      );
      if (grabbed.exitCode !== 0) {
        throw new Error(
          `ffmpeg could not take a slide's frame (${grabbed.exitCode}): ${grabbed.stderr.trim().split('\n').at(-1)}`,
        );
      }
      let text = '';
      if (readWords) {
        try {
          text = (await readSlideText(config, picture, { nice: SLIDES_NICE, signal })).text;
        } catch (error) {
          if (signal.aborted) throw error;
          deps.warn?.(`[slides] ${videoId}: ${(error as Error).message}`);
        }
      }
      await storage.put(slideThumbnailKey(videoId, id), readFileSync(thumbnail));
      rmSync(picture, { force: true });
      rmSync(thumbnail, { force: true });
      made.push({ id, seconds: Math.round(mark.seconds * 100) / 100, frameSeconds: mark.frameSeconds, text });
    }
    return made;
  }

  /** Thumbnails no slide row names (an earlier run's, a failed run's). */
  async function removeStrayThumbnails(videoId: string) {
    const kept = new Set((await slidesOfVideo(db, videoId)).map((slide) => `${slide.id}.webp`));
    for (const name of await storage.list(slideThumbnailPrefix(videoId))) {
      if (!kept.has(name)) await storage.delete(`${slideThumbnailPrefix(videoId)}/${name}`);
    }
  }

  return {
    async run({ videoId }, { job, signal, lease, attempt, log }) {
      const video = await getVideo(db, videoId);
      if (video?.status !== 'ready' || video.slidesOff) return undefined;
      const plan = readPlan(video);
      const work = join(slidesScratchDir(config.scratchDir), `${videoId}-${attempt}`);
      mkdirSync(work, { recursive: true });
      try {
        const started = Date.now();
        const low = join(work, 'low.mp4');
        await wholeRung(videoId, 0, low);
        const detection = await detectSlides(config, low, { signal, nice: SLIDES_NICE });
        rmSync(low, { force: true });
        if (!detection.slides) {
          log(`[slides] ${videoId}: no slide index (still ${Math.round(detection.stillShare * 100)}% of the time)`);
          return { found: false, slides: [] };
        }
        const made = await framesOf(videoId, plan.rungs.length - 1, detection.marks, work, signal);
        // A run that lost its lease writes nothing: its thumbnails go with the next run's cleanup.
        if (!(await holdsLease(db, job.id, lease))) throw new Error('stopped: lease lost');
        log(`[slides] ${videoId}: ${made.length} slides in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        return { found: true, slides: made };
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    async finished({ videoId }) {
      await removeStrayThumbnails(videoId);
    },
    async failed({ videoId }, _reason, final) {
      if (final) await removeStrayThumbnails(videoId);
    },
  };
}
