import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probe, runTool } from '../media/ffmpeg';

export const tools = {
  ffmpegPath: process.env.FFMPEG_PATH ?? 'ffmpeg',
  ffprobePath: process.env.FFPROBE_PATH ?? 'ffprobe',
};

/** A PNG of one colour, made by ffmpeg's lavfi source. */
export async function makePng(width: number, height: number, color = 'royalblue'): Promise<Uint8Array> {
  const result = await runTool([
    tools.ffmpegPath,
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=${color}:s=${width}x${height}`,
    '-frames:v',
    '1',
    '-f',
    'image2pipe',
    '-c:v',
    'png',
    'pipe:1',
  ]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  return result.stdout;
}

/** Width, height and codec of an image held in memory. */
export async function imageInfo(bytes: Uint8Array) {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-image-'));
  try {
    const file = join(dir, 'image');
    writeFileSync(file, bytes);
    const stream = (await probe(tools, file))?.streams[0];
    return { codec: stream?.codec_name, width: stream?.width, height: stream?.height };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const readBytes = (path: string) => new Uint8Array(readFileSync(path));

/**
 * A short clip made by ffmpeg (testsrc2, or another lavfi `video` source, plus a sine tone unless silent),
 * written to `dir` at `fps` frames per second.
 */
export async function makeClip(
  dir: string,
  options: {
    width: number;
    height: number;
    seconds: number;
    fps?: number;
    audio?: boolean;
    name?: string;
    video?: string;
    crf?: number;
    /** Moving grain over the picture: nothing to compress, so the file is big (with `crf: 0`, ~90 MB/s at 1080p). */
    noise?: boolean;
    /** A video filter (say `select=...`, to make a variable frame rate with `vfr`). */
    filter?: string;
    /** Variable frame rate: frames keep the times the filter gave them. */
    vfr?: boolean;
    /** The display rotation a phone records (the stream is stored landscape, shown turned). */
    rotate?: 90 | 180 | 270;
  },
): Promise<string> {
  const file = join(dir, options.name ?? `clip-${options.width}x${options.height}.mp4`);
  const fps = options.fps ?? 30;
  const args = [
    tools.ffmpegPath,
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    options.video ?? `testsrc2=s=${options.width}x${options.height}:r=${fps}:d=${options.seconds}`,
  ];
  if (options.audio !== false) args.push('-f', 'lavfi', '-i', `sine=f=440:d=${options.seconds}`);
  args.push(
    '-t',
    String(options.seconds),
    ...(options.vfr ? ['-fps_mode', 'vfr'] : ['-r', String(fps)]),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
  );
  if (options.crf !== undefined) args.push('-crf', String(options.crf));
  const filters = [options.noise ? 'noise=alls=60:allf=t+u' : '', options.filter ?? ''].filter(Boolean);
  if (filters.length > 0) args.push('-vf', filters.join(','));
  if (options.audio !== false) args.push('-c:a', 'aac', '-shortest');
  const made = options.rotate ? `${file}.unrotated.mp4` : file;
  args.push(made);
  const result = await runTool(args);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  if (options.rotate) {
    // ffmpeg 5.1 writes the rotation (a display matrix) when remuxing, not when encoding.
    const remux = await runTool([
      tools.ffmpegPath,
      '-v',
      'error',
      '-y',
      '-i',
      made,
      '-c',
      'copy',
      '-metadata:s:v:0',
      `rotate=${options.rotate}`,
      file,
    ]);
    rmSync(made, { force: true });
    if (remux.exitCode !== 0) throw new Error(remux.stderr);
  }
  return file;
}

/** Posts a file to /api/upload as the `uploadedFile` field. */
export function uploadForm(bytes: Uint8Array, fileName: string): FormData {
  const form = new FormData();
  form.append('uploadedFile', new File([bytes as Uint8Array<ArrayBuffer>], fileName, { type: 'video/mp4' }));
  return form;
}

/**
 * A lecture with one cue to see and hear at once: black (a still slide, or with moving grain for a camera), turning
 * white for a second at `flashAt` while a tone sounds, silent otherwise. Comparing when the picture turns white with
 * when the tone starts, after transcoding, shows whether sound and picture stayed together.
 */
export async function makeFlashClip(
  dir: string,
  options: {
    name: string;
    seconds: number;
    flashAt: number;
    camera: boolean;
    width?: number;
    height?: number;
    /** The sound track starts this many seconds after the picture (its times say so; no silence is added). */
    audioLate?: number;
  },
): Promise<string> {
  const { seconds, flashAt } = options;
  const size = `${options.width ?? 1280}x${options.height ?? 720}`;
  const during = `between(t\\,${flashAt}\\,${flashAt + 1})`;
  const grain = options.camera ? ',noise=alls=30:allf=t+u' : '';
  const file = join(dir, options.name);
  const result = await runTool([
    tools.ffmpegPath,
    '-v',
    'error',
    '-y',
    '-filter_complex',
    `color=c=black:s=${size}:r=30:d=${seconds},drawbox=c=white:t=fill:enable='${during}'${grain},format=yuv420p[v];` +
      `sine=f=440:d=${seconds},volume=volume=0:enable='not(${during})'[a]`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-c:a',
    'aac',
    options.audioLate ? `${file}.aligned.mp4` : file,
  ]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  if (options.audioLate) {
    const aligned = `${file}.aligned.mp4`;
    const shifted = await runTool([
      tools.ffmpegPath,
      '-v',
      'error',
      '-y',
      '-i',
      aligned,
      '-itsoffset',
      String(options.audioLate),
      '-i',
      aligned,
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-c',
      'copy',
      file,
    ]);
    rmSync(aligned, { force: true });
    if (shifted.exitCode !== 0) throw new Error(shifted.stderr);
  }
  return file;
}

/**
 * A recording as browsers make it, with makeFlashClip's cue (white picture and tone at `flashAt`): `webm` as
 * Chromium's MediaRecorder writes it (VP8 + Opus streamed to a pipe, so no duration and no cues; its first timestamp
 * at 3 s; a variable frame rate: half the frames missing for a second, none for the next, as a still screen sends),
 * or `mp4` as Safari's (fragmented H.264 + AAC).
 */
export async function makeRecordingClip(
  dir: string,
  options: {
    name: string;
    seconds: number;
    flashAt: number;
    container: 'webm' | 'mp4';
    width?: number;
    height?: number;
  },
): Promise<string> {
  const { seconds, flashAt } = options;
  const size = `${options.width ?? 640}x${options.height ?? 360}`;
  const during = `between(t\\,${flashAt}\\,${flashAt + 1})`;
  const missing =
    options.container === 'webm' ? `,select='not(between(t\\,1\\,2)*mod(n\\,2))*not(between(t\\,2\\,3))'` : '';
  const encode =
    options.container === 'webm'
      ? ['-fps_mode', 'vfr', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '400k']
      : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const audio = options.container === 'webm' ? ['-c:a', 'libopus', '-b:a', '48k'] : ['-c:a', 'aac'];
  const muxer =
    options.container === 'webm'
      ? ['-output_ts_offset', '3', '-f', 'webm']
      : ['-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4'];
  const result = await runTool([
    ...[tools.ffmpegPath, '-v', 'error', '-filter_complex'],
    `color=c=black:s=${size}:r=30:d=${seconds},drawbox=c=white:t=fill:enable='${during}',noise=alls=30:allf=t+u${missing},format=yuv420p[v];` +
      `sine=f=440:d=${seconds}:sample_rate=48000,volume=volume=0:enable='not(${during})',asetnsamples=n=960[a]`,
    ...['-map', '[v]', '-map', '[a]', ...encode, ...audio, ...muxer, 'pipe:1'],
  ]);
  if (result.exitCode !== 0) throw new Error(result.stderr);
  const file = join(dir, options.name);
  writeFileSync(file, result.stdout);
  return file;
}

/** What a player reading one rung's playlist gets: times of its frames, keyframes, the flash and the tone. */
export async function readRung(playlist: string) {
  const packets = await runTool([
    tools.ffprobePath,
    '-v',
    'error',
    '-select_streams',
    'v',
    '-show_entries',
    'packet=pts_time,flags',
    '-of',
    'csv=p=0',
    playlist,
  ]);
  const video = new TextDecoder()
    .decode(packets.stdout)
    .trim()
    .split('\n')
    .map((line) => ({ at: Number(line.split(',')[0]), key: line.includes('K') }));
  // Each filter writes "frame:N pts:P pts_time:T" then "key=value" lines to its own file.
  const videoStats = `${playlist}.video.txt`;
  const audioStats = `${playlist}.audio.txt`;
  await runTool([
    tools.ffmpegPath,
    '-v',
    'error',
    '-i',
    playlist,
    '-vf',
    `signalstats,metadata=print:key=lavfi.signalstats.YAVG:file=${videoStats}`,
    '-af',
    `astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=${audioStats}`,
    '-f',
    'null',
    '-',
  ]);
  /** The time of the first frame whose value passes `threshold`. */
  const firstAbove = (file: string, threshold: number) => {
    let at = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const time = /pts_time:([\d.]+)/.exec(line);
      if (time) at = Number(time[1]);
      const value = /=(-?[\d.]+)$/.exec(line);
      if (value && !time && Number(value[1]) > threshold) return at;
    }
    return undefined;
  };
  const flash = firstAbove(videoStats, 128);
  const tone = firstAbove(audioStats, -40);
  const durations = [...readFileSync(playlist, 'utf8').matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
  return { video, keyframes: video.filter((p) => p.key).map((p) => p.at), flash, tone, durations };
}
