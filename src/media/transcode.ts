import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readStreamText } from '../lib/read-stream';
import { mediaFileName } from '../storage/keys';
import { runTool, type Tools } from './ffmpeg';
import { AUDIO_KBPS, KEYFRAME_SECONDS, type Plan, SEGMENT_SECONDS, SLIDES_FPS } from './ladder';

export const FFMPEG_NICE = 10;

export type TranscodeCommands = {
  /** Encodes the audio once and writes it to stdout (NUT), or null: no audio, or muxed in `ladder` itself. */
  audio: string[] | null;
  /** Makes every rung; reads the encoded audio from stdin when `audio` is set. */
  ladder: string[];
};

/**
 * How the ladder treats frames. `lecture` (the default): a still source (slides, a paused screen: see looksStill) is
 * encoded at a constant SLIDES_FPS, anything else at its own constant rate; the audio is encoded once, in its own
 * process, and copied into every rung. Two baselines for the benchmark: `dropped`, the pipeline before (repeated
 * frames dropped, a variable frame rate that WebKit's MediaSource could not play), and `every`, the one before that
 * (every frame, the audio encoded once per rung). `still` skips looksStill when the caller knows.
 */
export type LadderOptions = { frames: 'lecture' | 'dropped' | 'every'; still?: boolean; trim?: Trim };

/** The part of the source the ladder keeps (the owner's trim), in seconds of the source from its first frame. */
export type Trim = { startSeconds: number; endSeconds: number };

/** Input options that cut the source to the trim; ffmpeg seeks from the source's first timestamp, and starts at 0. */
const cutTo = (trim: Trim | undefined) =>
  trim ? ['-ss', trim.startSeconds.toFixed(3), '-to', trim.endSeconds.toFixed(3)] : [];

/** A source counts as still when at most this share of its sampled frames differ from the one before. */
export const STILL_CHANGED_SHARE = 0.2;
/** Where looksStill samples the source (shares of its length), a second each. */
const STILL_SAMPLES_AT = [0.2, 0.4, 0.6, 0.8];
/**
 * A predicted frame under this many bits per pixel repeats the one before, near enough: an all-skip frame is a few
 * dozen bytes, x264 ultrafast refining a still 1080p picture 0.003, a moving test card 0.3, a 720p camera at 1 Mb/s
 * about 0.03.
 */
const UNCHANGED_BITS_PER_PIXEL = 0.008;
/** The packets decide alone when at least this share of frames is unchanged (still), or at most the other (moving). */
const PACKETS_STILL_SHARE = 0.9;
const PACKETS_MOVING_SHARE = 0.5;

export type StillCheck = {
  still: boolean;
  /** `packets`: told from the sizes of the source's packets, nothing decoded; `frames`: the packets could not tell. */
  by: 'packets' | 'frames';
  cpuSeconds: number;
};

/**
 * Whether the source is still (slides, a paused screen). First from the sizes of its packets, a second at each of a
 * few places, read without decoding (tens of ms): a repeated frame costs the source's encoder next to nothing, and a
 * variable-rate source has no frame at all where nothing moves. Only when that cannot tell (intra-only sources,
 * padded constant bit rates, a screen with some movement) does it decode the same seconds and count the frames
 * `mpdecimate` keeps (about a CPU second for 1080p, and that much later a first segment).
 */
export async function looksStill(tools: Tools, plan: Plan, source: string, signal?: AbortSignal): Promise<StillCheck> {
  const format = await runTool(
    [
      ...[tools.ffprobePath, '-v', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', 'format=duration:stream=width,height', '-of', 'default=nw=1', source],
    ],
    { signal },
  );
  const facts = Object.fromEntries(
    new TextDecoder()
      .decode(format.stdout)
      .split('\n')
      .map((line) => line.split('=')),
  );
  const seconds = Number(facts.duration);
  if (!(seconds > 0)) return { still: false, by: 'packets', cpuSeconds: format.cpuSeconds };
  const starts = STILL_SAMPLES_AT.map((share) => Math.max(0, Math.min(seconds * share, seconds - 1)).toFixed(2));
  const packets = await packetsSay(tools, plan, source, starts, Number(facts.width) * Number(facts.height), signal);
  const cpuSeconds = format.cpuSeconds + packets.cpuSeconds;
  if (packets.still !== undefined) return { still: packets.still, by: 'packets', cpuSeconds };
  const frames = await framesSay(tools, plan, source, starts, signal);
  return { still: frames.still, by: 'frames', cpuSeconds: cpuSeconds + frames.cpuSeconds };
}

/** Still, moving, or undefined (cannot tell), from the packets of a second at each start; no decoding. */
async function packetsSay(
  tools: Tools,
  plan: Plan,
  source: string,
  starts: string[],
  pixels: number,
  signal?: AbortSignal,
): Promise<{ still: boolean | undefined; cpuSeconds: number }> {
  // ffprobe reads each interval from the keyframe before it; only the second itself is counted, since the frames just
  // after a keyframe often refine a still picture (bigger than the repeats that follow). One process: spawning costs
  // more than reading.
  const windows = starts.map(Number).map((at) => ({ from: at, to: at + 1 }));
  const listed = await runTool(
    [
      ...[tools.ffprobePath, '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,size,flags'],
      ...['-read_intervals', windows.map((w) => `${w.from}%${w.to}`).join(','), '-of', 'csv=p=0', source],
    ],
    { signal },
  );
  const unknown = { still: undefined, cpuSeconds: listed.cpuSeconds };
  if (listed.exitCode !== 0 || !(pixels > 0)) return unknown;
  // Intervals may overlap (a short source): each packet is counted once, and the seconds they cover once.
  const packets = new Map<number, { size: number; key: boolean }>();
  for (const line of new TextDecoder().decode(listed.stdout).trim().split('\n')) {
    const [at, size, flags] = line.split(',');
    const time = Number(at);
    if (windows.some((w) => time >= w.from && time < w.to)) {
      packets.set(time, { size: Number(size), key: (flags ?? '').includes('K') });
    }
  }
  let covered = 0;
  let reached = Number.NEGATIVE_INFINITY;
  for (const w of windows.toSorted((a, b) => a.from - b.from)) {
    covered += Math.max(0, w.to - Math.max(w.from, reached));
    reached = Math.max(reached, w.to);
  }
  const predicted = [...packets.values()].filter((packet) => !packet.key);
  const changed = predicted.filter((packet) => (packet.size * 8) / pixels >= UNCHANGED_BITS_PER_PIXEL).length;
  // Frames a variable-rate source left out where nothing moved count as unchanged ones.
  const frames = Math.max(packets.size, Math.round(plan.fps * covered));
  // An intra-only source (every frame a keyframe) says nothing by its sizes, nor one padded to a constant bit rate:
  // the middle 80% of its frames within a few bytes of one size (moving grain, as even as a picture gets, 0.15%).
  if (packets.size === 0 || predicted.length < packets.size / 2) return unknown;
  const sizes = predicted.map((packet) => packet.size).sort((x, y) => x - y);
  const at = (share: number) => sizes[Math.floor((sizes.length - 1) * share)] ?? 0;
  const padded = at(0.9) - at(0.1) <= Math.max(4, at(0.5) * 0.0005);
  if (padded && at(0.5) * 8 >= pixels * UNCHANGED_BITS_PER_PIXEL) return unknown;
  const unchanged = 1 - changed / frames;
  if (unchanged >= PACKETS_STILL_SHARE) return { ...unknown, still: true };
  if (unchanged <= PACKETS_MOVING_SHARE) return { ...unknown, still: false };
  return unknown;
}

/**
 * Still when, in a second at each start, `mpdecimate` (what the `dropped` pipeline ran over every frame) keeps at most
 * STILL_CHANGED_SHARE of the frames. A few short decodes, in parallel, each on one thread.
 */
async function framesSay(
  tools: Tools,
  plan: Plan,
  source: string,
  starts: string[],
  signal?: AbortSignal,
): Promise<{ still: boolean; cpuSeconds: number }> {
  const samples = await Promise.all(
    starts.map(async (at) => {
      // One listing of two streams: every frame (0) and the frames mpdecimate keeps (1).
      const sample = await runTool(
        [
          ...[tools.ffmpegPath, '-hide_banner', '-nostdin', '-v', 'error', '-threads', '1'],
          ...['-ss', at, '-t', '1', '-i', source, '-filter_threads', '1'],
          ...['-filter_complex', `[0:v]fps=${plan.fps},split[all][some];[some]mpdecimate[kept]`],
          ...['-map', '[all]', '-map', '[kept]', '-f', 'framecrc', 'pipe:1'],
        ],
        { nice: FFMPEG_NICE, signal },
      );
      const lines = new TextDecoder().decode(sample.stdout).split('\n');
      const count = (stream: string) => lines.filter((line) => line.startsWith(`${stream},`)).length;
      return { all: count('0'), kept: count('1'), cpuSeconds: sample.cpuSeconds };
    }),
  );
  const sum = (pick: (sample: (typeof samples)[number]) => number) => samples.reduce((t, s) => t + pick(s), 0);
  const all = sum((s) => s.all);
  return { still: all > 0 && sum((s) => s.kept) / all <= STILL_CHANGED_SHARE, cpuSeconds: sum((s) => s.cpuSeconds) };
}

/**
 * One ffmpeg process makes every rung from one decode: scale to the top rung once, split, and scale the
 * copies down (measured 0.86× the time of scaling each from the source). Pixels stay square (`setsar=1`): rounding a
 * size to even numbers would otherwise leave a sample aspect ratio, and players would show a size the master does
 * not declare (240×427 for a 240×426 rung).
 *
 * The frame rate is constant: WebKit's MediaSource (Safari, iPad, the iPhone's ManagedMediaSource) gives every frame
 * of an fMP4 segment the same duration, so frames of a variable rate left gaps between them and a slides lecture
 * stopped at 0:00 with a decode error. A still source is encoded at SLIDES_FPS instead: a slide shows at most a quarter
 * of a second late, and it costs about what dropping repeated frames did (bench:slides).
 *
 * `dropped` (a baseline): repeated frames go with `mpdecimate` and the output keeps a variable frame rate. Some frames
 * are kept whatever they show, because ffmpeg 5.1's fMP4 muxer guesses the duration of a segment's last frame (it
 * takes the one before) and the next segment starts where that guess ends: the first 3 frames and, around every
 * keyframe time, the frame itself and the 4 before it.
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
  options: LadderOptions = { frames: 'lecture' },
): TranscodeCommands {
  const { frames: pipeline } = options;
  const count = plan.rungs.length;
  const top = plan.rungs[count - 1];
  const still = pipeline === 'lecture' && options.still === true;
  const fps = ladderFps(plan, options);
  // Keyframes every KEYFRAME_SECONDS whatever the rate, so segments cut at the same times in every rung.
  const gop = Math.max(1, Math.round(fps * KEYFRAME_SECONDS));
  const labels = plan.rungs.map((_, i) => `[s${i}]`).join('');
  const downscales = plan.rungs.map((rung, i) =>
    i === count - 1 ? `[s${i}]null[v${i}]` : `[s${i}]scale=${rung.width}:${rung.height},setsar=1[v${i}]`,
  );
  const frames =
    pipeline === 'dropped'
      ? `[0:v]fps=${fps},split[every][guard];[every]mpdecimate[changed];` +
        `[guard]select='lt(n\\,3)+lt(mod(n+4\\,${gop})\\,5)'[kept];` +
        `[changed][kept]interleave,select='isnan(prev_selected_t)+gt(t\\,prev_selected_t)'`
      : `[0:v]fps=${fps}`;
  const filter = `${frames},scale=${top.width}:${top.height},setsar=1,format=yuv420p,split=${count}${labels};${downscales.join(';')}`;
  const quiet = [tools.ffmpegPath, '-hide_banner', '-nostdin', '-v', 'error'];
  const aac = ['-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2', '-ar', '48000'];
  const pipedAudio = pipeline !== 'every' && plan.hasAudio;
  // The ladder shifts each input to start at zero: the piped audio is padded with silence back to the source's start
  // (`first_pts=0`), so a track that starts after the picture (a phone's, a screen recorder's) keeps its place.
  const pad = ['-af', 'aresample=async=1:first_pts=0'];
  const audio = pipedAudio
    ? [...quiet, ...cutTo(options.trim), '-i', source, '-map', '0:a:0', '-vn', ...pad, ...aac, '-f', 'nut', 'pipe:1']
    : null;

  const args = [...quiet, '-y', ...cutTo(options.trim), '-i', source];
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
  if (pipeline === 'dropped') args.push('-fps_mode', 'vfr');
  // No B-frames at the slides' rate: their reordering delay (2 frames, 0.5 s) starts the picture late, a gap before
  // the first frame that WebKit's MediaSource does not play over; a still picture gains nothing from them.
  if (still) args.push('-bf', '0');
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

/** The constant rate the rungs are encoded at (the master playlist's FRAME-RATE). */
export const ladderFps = (plan: Plan, options: LadderOptions) =>
  options.frames === 'lecture' && options.still === true ? Math.min(SLIDES_FPS, plan.fps) : plan.fps;

export type TranscodeProgress = { outTimeMs: number };
export type TranscodeResult = ({ ok: true } | { ok: false; reason: string }) & {
  /** CPU seconds and peak memory of the ffmpeg processes, for the benchmark. */
  usage: { cpuSeconds: number; peakMb: number };
  /** The rate the rungs were encoded at, and how a still source was told (null when the caller said). */
  fps: number;
  stillBy: StillCheck['by'] | null;
};

/** Runs the ladder transcode at low priority (after looksStill, unless told), reporting how far it has got. */
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
  const chosen: LadderOptions = options ?? { frames: 'lecture' };
  const check =
    chosen.frames === 'lecture' && chosen.still === undefined ? await looksStill(tools, plan, source, signal) : null;
  const decided = check ? { ...chosen, still: check.still } : chosen;
  const told = { fps: ladderFps(plan, decided), stillBy: check?.by ?? null };
  if (signal.aborted)
    return { ok: false, reason: 'Stopped.', usage: { cpuSeconds: check?.cpuSeconds ?? 0, peakMb: 0 }, ...told };
  const commands = transcodeCommands(tools, plan, source, outDir, decided);
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
  const usage = { cpuSeconds: check?.cpuSeconds ?? 0, peakMb: 0 };
  for (const process of [child, audio]) {
    const used = process?.resourceUsage();
    if (!used) continue;
    usage.cpuSeconds += Number(used.cpuTime.user + used.cpuTime.system) / 1e6;
    usage.peakMb += used.maxRSS / 1024 / 1024;
  }
  if (exitCode === 0 && audioExit === 0) return { ok: true, usage, ...told };
  const failed = exitCode !== 0 ? { code: exitCode, text: stderr } : { code: audioExit, text: audioStderr };
  const lastLine = failed.text.trim().split('\n').at(-1) ?? '';
  const reason = signal.aborted ? 'Stopped.' : `ffmpeg failed (${failed.code}): ${lastLine}`.slice(0, 500);
  return { ok: false, reason, usage, ...told };
}

/** A frame from about 10% in (of the trimmed part, if trimmed), at the 360p rung's size (or the nearest), as the poster. */
export async function makePoster(
  tools: Tools,
  plan: Plan,
  source: string,
  outDir: string,
  durationMs: number,
  trim?: Trim,
) {
  const rung = plan.rungs.find((r) => r.name === '360p') ?? plan.rungs[plan.rungs.length - 1];
  mkdirSync(outDir, { recursive: true });
  const at = ((trim?.startSeconds ?? 0) + (durationMs / 1000) * 0.1).toFixed(2);
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
