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
