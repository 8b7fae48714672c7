import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIO_CODEC, AUDIO_KBPS, type Plan, type Rung, VIDEO_CODEC } from './ladder';

/** A caption track the master lists as a subtitle rendition (native HLS players, as iPhone's, show it in full screen). */
export type SubtitleRendition = { language: string; label: string; uri: string };

const quoted = (text: string) => `"${text.replace(/["\r\n]/g, ' ')}"`;

/**
 * The master playlist: each rung with BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION, FRAME-RATE and CODECS, and the
 * lecture's captions as the subtitle group `cc`. `folder` (a signed token folder, `{expiry}.{hmac}/`) goes before each
 * rung's path, and the rung playlists' relative URLs carry it on to every segment.
 */
export function masterPlaylist(
  rungs: Rung[],
  fps: number,
  hasAudio: boolean,
  subtitles: SubtitleRendition[] = [],
  folder = '',
): string {
  const codecs = hasAudio ? `${VIDEO_CODEC},${AUDIO_CODEC}` : VIDEO_CODEC;
  const audioBps = hasAudio ? AUDIO_KBPS * 1000 : 0;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const subtitle of subtitles) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="cc",NAME=${quoted(subtitle.label)},LANGUAGE=${quoted(subtitle.language)},DEFAULT=NO,AUTOSELECT=YES,FORCED=NO,URI=${quoted(subtitle.uri)}`,
    );
  }
  const group = subtitles.length > 0 ? ',SUBTITLES="cc"' : '';
  rungs.forEach((rung, i) => {
    // Before measuring, declare the cap (maxrate) as the peak and 60% of it as the average.
    const peak = rung.peakBps ?? rung.maxrateKbps * 1000 + audioBps;
    const average = rung.averageBps ?? Math.round(rung.maxrateKbps * 600) + audioBps;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(peak)},AVERAGE-BANDWIDTH=${Math.round(average)},RESOLUTION=${rung.width}x${rung.height},FRAME-RATE=${fps.toFixed(3)},CODECS="${codecs}"${group}`,
      `${folder}${i}/index.m3u8`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** Segment list of a rung playlist: durations and file names. */
export function readRungPlaylist(dir: string, rung: number): { duration: number; file: string }[] {
  let text: string;
  try {
    text = readFileSync(join(dir, String(rung), 'index.m3u8'), 'utf8');
  } catch {
    return [];
  }
  const segments: { duration: number; file: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^#EXTINF:([\d.]+)/.exec(lines[i]);
    if (match && lines[i + 1]) segments.push({ duration: Number(match[1]), file: lines[i + 1].trim() });
  }
  return segments;
}

/**
 * Measures each rung's real peak and average bit rate from its segments (what the player will fetch); `sizes` has the
 * bytes of segments already published (moved out of `dir`), by name (`0/seg_00001.m4s`).
 */
export function measureRungs(dir: string, plan: Plan, sizes: ReadonlyMap<string, number> = new Map()): Rung[] {
  return plan.rungs.map((rung, i) => {
    const segments = readRungPlaylist(dir, i);
    let totalBytes = 0;
    let totalSeconds = 0;
    let peak = 0;
    for (const segment of segments) {
      const bytes = sizes.get(`${i}/${segment.file}`) ?? statSync(join(dir, String(i), segment.file)).size;
      totalBytes += bytes;
      totalSeconds += segment.duration;
      if (segment.duration > 0.5) peak = Math.max(peak, (bytes * 8) / segment.duration);
    }
    if (totalSeconds === 0) return rung;
    const average = (totalBytes * 8) / totalSeconds;
    return { ...rung, peakBps: Math.round(Math.max(peak, average)), averageBps: Math.round(average) };
  });
}
