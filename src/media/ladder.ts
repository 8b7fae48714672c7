import type { SourceInfo } from './probe';

/**
 * The HLS ladder. `short` is the short side, so portrait video gets 720×1280, not 405×720.
 * H.264 Main@3.1 plays on every phone of the last decade; AAC-LC stereo likewise.
 */
export const LADDER = [
  { name: '240p', short: 240, maxrateKbps: 500, bufsizeKbps: 1000 },
  { name: '360p', short: 360, maxrateKbps: 900, bufsizeKbps: 1800 },
  { name: '720p', short: 720, maxrateKbps: 2800, bufsizeKbps: 5600 },
] as const;

export const AUDIO_KBPS = 96;
export const MAX_FPS = 30;
export const KEYFRAME_SECONDS = 2;
/** The constant frame rate of a still source (slides): few frames to encode, a slide at most 0.25 s late. */
export const SLIDES_FPS = 4;
export const SEGMENT_SECONDS = 4;
export const VIDEO_CODEC = 'avc1.4d401f';
export const AUDIO_CODEC = 'mp4a.40.2';

export type Rung = {
  name: string;
  width: number;
  height: number;
  maxrateKbps: number;
  bufsizeKbps: number;
  /** Measured once the video is ready (bits per second), else undefined. */
  peakBps?: number;
  averageBps?: number;
};

export type Plan = { rungs: Rung[]; fps: number; hasAudio: boolean };

// H.264 needs even dimensions.
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Which rungs to make for this source: never above its own size, aspect ratio kept, fps capped at 30. */
export function planLadder(source: Pick<SourceInfo, 'width' | 'height' | 'fps' | 'hasAudio'>): Plan {
  const landscape = source.width >= source.height;
  const sourceShort = landscape ? source.height : source.width;
  const sizeFor = (short: number) => {
    const long = (short * (landscape ? source.width : source.height)) / sourceShort;
    return landscape ? { width: even(long), height: even(short) } : { width: even(short), height: even(long) };
  };
  const fitting = LADDER.filter((rung) => rung.short <= sourceShort);
  const rungs: Rung[] = fitting.map((rung) => ({
    name: rung.name,
    ...sizeFor(rung.short),
    maxrateKbps: rung.maxrateKbps,
    bufsizeKbps: rung.bufsizeKbps,
  }));
  if (rungs.length === 0) {
    // A source smaller than the lowest rung gets one rung at its own size.
    rungs.push({ name: `${even(sourceShort)}p`, ...sizeFor(sourceShort), maxrateKbps: 500, bufsizeKbps: 1000 });
  }
  const fps = Math.min(MAX_FPS, Math.round(source.fps * 1000) / 1000 || MAX_FPS);
  return { rungs, fps, hasAudio: source.hasAudio };
}
