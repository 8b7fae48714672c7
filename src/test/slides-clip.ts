import { join } from 'node:path';
import { runTool } from '../media/ffmpeg';
import { tools } from './fixtures';

/** Debian's DejaVu fonts (fonts-dejavu-core, which ffmpeg's own packages pull in). */
export const SLIDE_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

export type ClipSlide = {
  /** How long the slide is shown (a fade's second comes out of the slide before it). */
  seconds: number;
  color: string;
  /** The big words on the slide (letters and spaces only). */
  words: string;
  /** Lines that appear one after the other, a second apart from its second 1 (a build-up animation). */
  buildUp?: string[];
  /** The slide comes in with a one-second cross-fade from the slide before. */
  fadeIn?: boolean;
};

export type SlidesClip = {
  path: string;
  /** Where each slide begins: a cut's frame, or a fade's first frame. */
  changes: number[];
  seconds: number;
};

const FADE_SECONDS = 1;

/**
 * A slides lecture made by ffmpeg: plain backgrounds with known words drawn in DejaVu Sans, changing at known times,
 * with optional fades and build-ups, and a quiet tone as the voice. Nothing is committed: tests and the benchmark
 * make it each run.
 */
export async function makeSlidesClip(
  dir: string,
  slides: ClipSlide[],
  options: { width?: number; height?: number; fps?: number; name?: string } = {},
): Promise<SlidesClip> {
  const width = options.width ?? 960;
  const height = options.height ?? 540;
  const fps = options.fps ?? 30;
  const big = Math.round(height / 9);
  const small = Math.round(height / 16);
  const parts: string[] = [];
  for (const [i, slide] of slides.entries()) {
    const lines = [
      `drawtext=fontfile=${SLIDE_FONT}:text='${slide.words}':fontsize=${big}:fontcolor=black:x=(w-text_w)/2:y=h/5`,
      ...(slide.buildUp ?? []).map(
        (line, n) =>
          `drawtext=fontfile=${SLIDE_FONT}:text='${line}':fontsize=${small}:fontcolor=black:x=w/8:y=h/2+${n}*${Math.round(small * 1.6)}:enable='gte(t,${n + 1})'`,
      ),
    ];
    parts.push(
      `color=c=${slide.color}:s=${width}x${height}:r=${fps}:d=${slide.seconds},format=yuv420p,${lines.join(',')}[s${i}]`,
    );
  }
  // Join the slides one by one: a cut with concat, a fade with xfade (which overlaps the two by its length).
  const changes: number[] = [0];
  let joined = 's0';
  let length = slides[0]?.seconds ?? 0;
  for (let i = 1; i < slides.length; i++) {
    const slide = slides[i] as ClipSlide;
    const out = `j${i}`;
    if (slide.fadeIn) {
      const offset = length - FADE_SECONDS;
      parts.push(
        `[${joined}][s${i}]xfade=transition=fade:duration=${FADE_SECONDS}:offset=${offset},settb=1/${fps}[${out}]`,
      );
      changes.push(offset);
      length = offset + slide.seconds;
    } else {
      parts.push(`[${joined}][s${i}]concat=n=2:v=1:a=0,settb=1/${fps}[${out}]`);
      changes.push(length);
      length += slide.seconds;
    }
    joined = out;
  }
  const path = join(dir, options.name ?? 'slides.mp4');
  const result = await runTool([
    tools.ffmpegPath,
    '-v',
    'error',
    '-y',
    '-filter_complex',
    `${parts.join(';')}`,
    '-f',
    'lavfi',
    '-i',
    `sine=f=220:d=${length}`,
    '-map',
    `[${joined}]`,
    '-map',
    '0:a',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(fps),
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-t',
    String(length),
    path,
  ]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  return { path, changes, seconds: length };
}
