import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readStreamText } from '../lib/read-stream';
import { mediaFileName } from '../storage/keys';
import { runTool, type Tools } from './ffmpeg';
import { AUDIO_KBPS, KEYFRAME_SECONDS, type Plan, SEGMENT_SECONDS } from './ladder';

export const FFMPEG_NICE = 10;

export type TranscodeCommands = {
  /** Encodes the audio once and writes it to stdout (NUT), or null: no audio, or muxed in `ladder` itself. */
  audio: string[] | null;
  /** Makes every rung; reads the encoded audio from stdin when `audio` is set. */
  ladder: string[];
};

/**
 * `lectureAware` (the default): frames that repeat the one before (a slide, a paused screen recording) are dropped
 * before scaling and encoding, and the output keeps a variable frame rate; the audio is encoded once, in its own
 * process, and copied into every rung. `false` is the pipeline before that, kept as the benchmark's baseline.
 */
export type LadderOptions = { lectureAware: boolean };

/**
 * One ffmpeg process makes every rung from one decode: scale to the top rung once, split, and scale the
 * copies down (measured 0.86× the time of scaling each from the source). Pixels stay square (`setsar=1`): rounding a
 * size to even numbers would otherwise leave a sample aspect ratio, and players would show a size the master does
 * not declare (240×427 for a 240×426 rung).
 *
 * Repeated frames go with `mpdecimate` (a slide, a paused screen): they are neither scaled nor encoded, and the
 * output keeps a variable frame rate. Some frames are kept whatever they show, because ffmpeg 5.1's fMP4 muxer has to
 * guess the duration of a segment's last frame (it takes the one before) and the next segment starts where that guess
 * ends: without them, a segment of slides lost up to 2 s and the picture ran ahead of the sound. Kept: the first 3
 * frames (the B-frame delay at the start stays 2 frames, as at a constant rate) and, around every keyframe time, the
 * frame itself and the 4 before it (the guessed duration is one frame, and so is the gap behind the reordering delay).
 * Every rung gets the same frames from one split, so keyframes and segment cuts stay in step across rungs.
 *
 * The audio encode (AAC, once per rung when muxed in the ladder process) ran on ffmpeg's main thread, in series with
 * filtering: a separate process encodes it once, on the other core, and the ladder copies the packets into every rung.
 * The audio stays muxed in each rung: the hls.js build the web app ships (light) cannot play a separate audio group.
 */
export function transcodeCommands(
  tools: Tools,
  plan: Plan,
  source: string,
  outDir: string,
  options: LadderOptions = { lectureAware: true },
): TranscodeCommands {
  const { lectureAware } = options;
  const count = plan.rungs.length;
  const top = plan.rungs[count - 1];
  const gop = Math.max(1, Math.round(plan.fps * KEYFRAME_SECONDS));
  const labels = plan.rungs.map((_, i) => `[s${i}]`).join('');
  const downscales = plan.rungs.map((rung, i) =>
    i === count - 1 ? `[s${i}]null[v${i}]` : `[s${i}]scale=${rung.width}:${rung.height},setsar=1[v${i}]`,
  );
  const frames = lectureAware
    ? `[0:v]fps=${plan.fps},split[every][guard];[every]mpdecimate[changed];` +
      `[guard]select='lt(n\\,3)+lt(mod(n+4\\,${gop})\\,5)'[kept];` +
      `[changed][kept]interleave,select='isnan(prev_selected_t)+gt(t\\,prev_selected_t)'`
    : `[0:v]fps=${plan.fps}`;
  const filter = `${frames},scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=${count}${labels};${downscales.join(';')}`;
  const quiet = [tools.ffmpegPath, '-hide_banner', '-nostdin', '-v', 'error'];
  const aac = ['-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2', '-ar', '48000'];
  const pipedAudio = lectureAware && plan.hasAudio;
  // The ladder shifts each input to start at zero: the piped audio is padded with silence back to the source's start
  // (`first_pts=0`), so a track that starts after the picture (a phone's, a screen recorder's) keeps its place.
  const pad = ['-af', 'aresample=async=1:first_pts=0'];
  const audio = pipedAudio
    ? [...quiet, '-i', source, '-map', '0:a:0', '-vn', ...pad, ...aac, '-f', 'nut', 'pipe:1']
    : null;

  const args = [...quiet, '-y', '-i', source];
  if (pipedAudio) args.push('-analyzeduration', '0', '-probesize', '32768', '-f', 'nut', '-i', 'pipe:0');
  args.push('-filter_complex', filter);
  plan.rungs.forEach((_, i) => {
    args.push('-map', `[v${i}]`);
  });
  if (plan.hasAudio) for (const _rung of plan.rungs) args.push('-map', pipedAudio ? '1:a:0' : '0:a:0');
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
  if (lectureAware) args.push('-fps_mode', 'vfr');
  if (plan.hasAudio) args.push(...(pipedAudio ? ['-c:a', 'copy'] : aac));
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
    '-stats_period',
    '0.1',
    join(outDir, '%v', 'index.m3u8'),
  );
  return { audio, ladder: args };
}

export type TranscodeProgress = { outTimeMs: number };
export type TranscodeResult = ({ ok: true } | { ok: false; reason: string }) & {
  /** CPU seconds and peak memory of the ffmpeg processes, for the benchmark. */
  usage: { cpuSeconds: number; peakMb: number };
};

/** Runs the ladder transcode at low priority, reporting how far into the source it has got. */
export async function runTranscode(
  tools: Tools,
  plan: Plan,
  source: string,
  outDir: string,
  onProgress: (progress: TranscodeProgress) => void,
  signal: AbortSignal,
  onSpawn: (pid: number) => void = () => {},
  options?: LadderOptions,
): Promise<TranscodeResult> {
  for (let i = 0; i < plan.rungs.length; i++) mkdirSync(join(outDir, String(i)), { recursive: true });
  const commands = transcodeCommands(tools, plan, source, outDir, options);
  const nice = ['nice', '-n', String(FFMPEG_NICE)];
  const audio = commands.audio
    ? Bun.spawn([...nice, ...commands.audio], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', signal })
    : null;
  const child = Bun.spawn([...nice, ...commands.ladder], {
    stdin: audio ? audio.stdout : 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    signal,
  });
  onSpawn(child.pid);
  let stderr = '';
  let audioStderr = '';
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
    audio &&
      readStreamText(audio.stderr, (text) => {
        audioStderr = (audioStderr + text).slice(-4000);
      }),
  ]);
  const exitCode = await child.exited;
  // The ladder has read all it needs; an audio process still running has nobody to write to.
  if (audio && exitCode !== 0) audio.kill();
  const audioExit = audio ? await audio.exited : 0;
  const usage = { cpuSeconds: 0, peakMb: 0 };
  for (const process of [child, audio]) {
    const used = process?.resourceUsage();
    if (!used) continue;
    usage.cpuSeconds += Number(used.cpuTime.user + used.cpuTime.system) / 1e6;
    usage.peakMb += used.maxRSS / 1024 / 1024;
  }
  if (exitCode === 0 && audioExit === 0) return { ok: true, usage };
  const failed = exitCode !== 0 ? { code: exitCode, text: stderr } : { code: audioExit, text: audioStderr };
  const lastLine = failed.text.trim().split('\n').at(-1) ?? '';
  const reason = signal.aborted ? 'Stopped.' : `ffmpeg failed (${failed.code}): ${lastLine}`.slice(0, 500);
  return { ok: false, reason, usage };
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
