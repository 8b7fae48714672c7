import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readStreamText } from '../lib/read-stream';
import { mediaFileName } from '../storage/keys';
import { runTool, type Tools } from './ffmpeg';
import { AUDIO_KBPS, KEYFRAME_SECONDS, type Plan, SEGMENT_SECONDS } from './ladder';

export const FFMPEG_NICE = 10;

/**
 * One ffmpeg process makes every rung from one decode: scale to the top rung once, split, and scale the
 * copies down (measured 0.86× the time of scaling each from the source). Pixels stay square (`setsar=1`): rounding a
 * size to even numbers would otherwise leave a sample aspect ratio, and players would show a size the master does
 * not declare (240×427 for a 240×426 rung).
 */
export function transcodeArgs(tools: Tools, plan: Plan, source: string, outDir: string): string[] {
  const count = plan.rungs.length;
  const top = plan.rungs[count - 1];
  const labels = plan.rungs.map((_, i) => `[s${i}]`).join('');
  const downscales = plan.rungs.map((rung, i) =>
    i === count - 1 ? `[s${i}]null[v${i}]` : `[s${i}]scale=${rung.width}:${rung.height},setsar=1[v${i}]`,
  );
  const filter = `[0:v]fps=${plan.fps},scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=${count}${labels};${downscales.join(';')}`;
  const gop = Math.max(1, Math.round(plan.fps * KEYFRAME_SECONDS));
  const args = [
    tools.ffmpegPath,
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-y',
    '-i',
    source,
    '-filter_complex',
    filter,
  ];
  plan.rungs.forEach((_, i) => {
    args.push('-map', `[v${i}]`);
  });
  if (plan.hasAudio) for (const _rung of plan.rungs) args.push('-map', '0:a:0');
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'main', '-level:v', '3.1');
  plan.rungs.forEach((rung, i) => {
    args.push(`-maxrate:v:${i}`, `${rung.maxrateKbps}k`, `-bufsize:v:${i}`, `${rung.bufsizeKbps}k`);
  });
  args.push(
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${KEYFRAME_SECONDS})`,
  );
  if (plan.hasAudio) args.push('-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2', '-ar', '48000');
  const streamMap = plan.rungs.map((_, i) => (plan.hasAudio ? `v:${i},a:${i}` : `v:${i}`)).join(' ');
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'event',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'independent_segments+temp_file',
    '-hls_fmp4_init_filename',
    // With several variants ffmpeg names each init file `init_<n>.mp4`; with one it keeps the name as given (and
    // does not expand %v), so a one-rung video (a source under 360 pixels) is named like the others here.
    plan.rungs.length > 1 ? 'init.mp4' : 'init_0.mp4',
    '-hls_segment_filename',
    join(outDir, '%v', 'seg_%05d.m4s'),
    '-var_stream_map',
    streamMap,
    '-progress',
    'pipe:1',
    '-nostats',
    join(outDir, '%v', 'index.m3u8'),
  );
  return args;
}

export type TranscodeProgress = { outTimeMs: number };

/** Runs the ladder transcode at low priority, reporting how far into the source it has got. */
export async function runTranscode(
  tools: Tools,
  plan: Plan,
  source: string,
  outDir: string,
  onProgress: (progress: TranscodeProgress) => void,
  signal: AbortSignal,
  onSpawn: (pid: number) => void = () => {},
): Promise<{ ok: true } | { ok: false; reason: string }> {
  for (let i = 0; i < plan.rungs.length; i++) mkdirSync(join(outDir, String(i)), { recursive: true });
  const args = transcodeArgs(tools, plan, source, outDir);
  const child = Bun.spawn(['nice', '-n', String(FFMPEG_NICE), ...args], {
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    signal,
  });
  onSpawn(child.pid);
  let stderr = '';
  let pending = '';
  await Promise.all([
    readStreamText(child.stdout, (text) => {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match) onProgress({ outTimeMs: Number(match[1]) / 1000 });
      }
    }),
    readStreamText(child.stderr, (text) => {
      stderr = (stderr + text).slice(-4000);
    }),
  ]);
  const exitCode = await child.exited;
  if (exitCode === 0) return { ok: true };
  const lastLine = stderr.trim().split('\n').at(-1) ?? '';
  return { ok: false, reason: signal.aborted ? 'Stopped.' : `ffmpeg failed (${exitCode}): ${lastLine}`.slice(0, 500) };
}

/** A frame from about 10% in, at the 360p rung's size (or the nearest), as the poster. */
export async function makePoster(tools: Tools, plan: Plan, source: string, outDir: string, durationMs: number) {
  const rung = plan.rungs.find((r) => r.name === '360p') ?? plan.rungs[plan.rungs.length - 1];
  mkdirSync(outDir, { recursive: true });
  const at = ((durationMs / 1000) * 0.1).toFixed(2);
  const result = await runTool(
    [
      tools.ffmpegPath,
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-ss',
      at,
      '-i',
      source,
      '-frames:v',
      '1',
      '-vf',
      `scale=${rung.width}:${rung.height}`,
      '-q:v',
      '4',
      join(outDir, mediaFileName({ kind: 'poster' })),
    ],
    { nice: FFMPEG_NICE },
  );
  return result.exitCode === 0;
}
