import { readStreamText } from '../lib/read-stream';
import type { Tools } from './ffmpeg';

/**
 * Slide detection: where the picture of a lecture changes and then stays still. ffmpeg decodes the smallest rung
 * and hands over tiny grey frames (DETECT_WIDTH × DETECT_HEIGHT, SAMPLES_PER_SECOND a second); the picker compares
 * them here. A slide starts where the picture leaves the last still picture, and its frame is taken once the picture
 * has been still for SETTLE_SAMPLES (after a fade or a build-up). Marks closer than MIN_GAP_SECONDS are one mark
 * (with the later settled frame), at most MAX_MARKS. A lecture that is mostly moving (a camera) has no index.
 */
export const SAMPLES_PER_SECOND = 4;
export const DETECT_WIDTH = 160;
export const DETECT_HEIGHT = 90;
/** A pixel counts as changed when its grey level moved by more than this (compression noise stays under it). */
const PIXEL_DELTA = 20;
/** Consecutive samples are still when fewer than this share of pixels changed (a mouse pointer is less). */
const STILL_SHARE = 0.002;
/** A still picture is a new slide when at least this share of pixels differs from the last slide's. */
const CHANGE_SHARE = 0.01;
/** Samples the picture must stay still before it counts as settled (half a second). */
const SETTLE_SAMPLES = 2;
export const MIN_GAP_SECONDS = 5;
export const MAX_MARKS = 300;
/** Below this share of still samples a video is a camera lecture, not slides. */
const MIN_STILL_SHARE = 0.5;
/** Fewer marks than this are no index worth showing. */
const MIN_MARKS = 2;

export type Mark = {
  /** Where the change began (what a student seeks to). */
  seconds: number;
  /** A moment the new picture was settled: the thumbnail's and the words' frame. */
  frameSeconds: number;
  /** Share of pixels that differ from the slide before (the first slide: 1). */
  change: number;
};

export type Detection = { slides: boolean; marks: Mark[]; stillShare: number; samples: number };

/** Share of pixels whose grey level differs by more than PIXEL_DELTA. */
export function changedShare(a: Uint8Array, b: Uint8Array): number {
  let changed = 0;
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d > PIXEL_DELTA || d < -PIXEL_DELTA) changed++;
  }
  return changed / a.length;
}

/** Feeds samples in time order with `push`; `finish` answers the marks (streaming: keeps three frames). */
export function createMarkPicker() {
  let previous: Uint8Array | undefined;
  let settled: Uint8Array | undefined;
  let changeStart: number | undefined;
  let stillRun = 0;
  let stillSamples = 0;
  let samples = 0;
  const candidates: Mark[] = [];

  return {
    push(seconds: number, pixels: Uint8Array) {
      samples++;
      const away = settled ? changedShare(pixels, settled) : 1;
      if (away >= CHANGE_SHARE && changeStart === undefined) changeStart = seconds;
      const still = previous !== undefined && changedShare(pixels, previous) < STILL_SHARE;
      previous = pixels;
      if (!still) {
        stillRun = 0;
        return;
      }
      stillSamples++;
      stillRun++;
      if (stillRun < SETTLE_SAMPLES) return;
      // Settled: a new slide if it differs from the last one (also after a fade too slow to count as motion) ...
      if (away >= CHANGE_SHARE) {
        candidates.push({ seconds: settled ? (changeStart ?? seconds) : 0, frameSeconds: seconds, change: away });
        settled = pixels;
        changeStart = undefined;
      } else if (stillRun === SETTLE_SAMPLES) {
        // ... else the same slide after a moment of motion (a pointer, a blink): it is the reference again.
        settled = pixels;
        changeStart = undefined;
      }
    },
    finish(): Detection {
      const stillShare = samples > 1 ? stillSamples / (samples - 1) : 0;
      const marks = spaceMarks(candidates);
      const slides = stillShare >= MIN_STILL_SHARE && marks.length >= MIN_MARKS;
      return { slides, marks: slides ? marks : [], stillShare, samples };
    },
  };
}

/**
 * One mark per MIN_GAP_SECONDS: a change soon after a mark (the rest of a fade, a build-up's next line) joins it,
 * and the mark's frame becomes the later settled one. Over MAX_MARKS, the biggest changes are kept.
 */
export function spaceMarks(candidates: Mark[]): Mark[] {
  const marks: Mark[] = [];
  for (const candidate of candidates) {
    const last = marks.at(-1);
    if (last && candidate.seconds - last.seconds < MIN_GAP_SECONDS) {
      last.frameSeconds = candidate.frameSeconds;
      last.change = Math.max(last.change, candidate.change);
      continue;
    }
    marks.push({ ...candidate });
  }
  if (marks.length <= MAX_MARKS) return marks;
  return marks
    .map((mark, index) => ({ mark, index }))
    .sort((a, b) => (a.index === 0 ? -1 : b.index === 0 ? 1 : b.mark.change - a.mark.change))
    .slice(0, MAX_MARKS)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.mark);
}

export type DetectionRun = Detection & { usage: { cpuSeconds: number } };

/** Decodes `input` once (niced, one thread) into tiny grey frames and picks the marks. */
export async function detectSlides(
  tools: Pick<Tools, 'ffmpegPath'>,
  input: string,
  options: { signal?: AbortSignal; nice?: number } = {},
): Promise<DetectionRun> {
  const frameBytes = DETECT_WIDTH * DETECT_HEIGHT;
  const command = [
    tools.ffmpegPath,
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-threads',
    '1',
    '-i',
    input,
    '-an',
    '-sn',
    '-vf',
    `fps=${SAMPLES_PER_SECOND},scale=${DETECT_WIDTH}:${DETECT_HEIGHT}:flags=area,format=gray`,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'gray',
    'pipe:1',
  ];
  const child = Bun.spawn(options.nice ? ['nice', '-n', String(options.nice), ...command] : command, {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    signal: options.signal,
  });
  const picker = createMarkPicker();
  let stderr = '';
  let index = 0;
  let pending = new Uint8Array(0);
  const read = async () => {
    const reader = child.stdout.getReader();
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      const joined = new Uint8Array(pending.length + chunk.length);
      joined.set(pending);
      joined.set(chunk, pending.length);
      let offset = 0;
      while (joined.length - offset >= frameBytes) {
        picker.push(index / SAMPLES_PER_SECOND, joined.slice(offset, offset + frameBytes));
        index++;
        offset += frameBytes;
      }
      pending = joined.slice(offset);
    }
  };
  await Promise.all([
    read(),
    readStreamText(child.stderr, (text) => {
      stderr = (stderr + text).slice(-4000);
    }),
  ]);
  const exitCode = await child.exited;
  if (exitCode !== 0) {
    const lastLine = stderr.trim().split('\n').at(-1) ?? '';
    throw new Error(options.signal?.aborted ? 'stopped' : `ffmpeg failed (${exitCode}): ${lastLine}`.slice(0, 500));
  }
  const used = child.resourceUsage();
  const cpuSeconds = used ? Number(used.cpuTime.user + used.cpuTime.system) / 1e6 : 0;
  return { ...picker.finish(), usage: { cpuSeconds } };
}
