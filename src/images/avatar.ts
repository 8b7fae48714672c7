import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { badRequest } from '../errors';
import { newId } from '../lib/ids';
import { probe, runTool, type Tools } from '../media/ffmpeg';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZE = 256;
const MAX_SIDE = 10_000;

/** Which raster format the bytes really are, from their signature; undefined for anything else (SVG included). */
export function rasterFormat(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | undefined {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Re-encodes an uploaded picture to a square WebP with ffmpeg (already needed for video, and it
 * survives `bun build --compile`, which a native image addon does not), so no uploaded byte is served as it came.
 */
export async function toAvatar(tools: Tools, tempDir: string, bytes: Uint8Array): Promise<Uint8Array> {
  const format = rasterFormat(bytes);
  if (!format) throw badRequest('not_an_image', 'errors.notAnImage');
  const unreadable = () => badRequest('unreadable_image', 'errors.unreadableImage');
  const input = join(tempDir, `${newId()}.${format}`);
  try {
    // A scratch copy for ffprobe and ffmpeg to read; removed below whatever happens.
    mkdirSync(tempDir, { recursive: true });
    await Bun.write(input, bytes);
    const info = await probe(tools, input);
    const image = info?.streams.find((stream) => stream.codec_type === 'video');
    if (!image?.width || !image.height) throw unreadable();
    if (image.width > MAX_SIDE || image.height > MAX_SIDE) {
      throw badRequest('image_too_big', 'errors.imageTooBig', {}, { max: MAX_SIDE });
    }
    const scale = `scale=${AVATAR_SIZE}:${AVATAR_SIZE}:force_original_aspect_ratio=increase,crop=${AVATAR_SIZE}:${AVATAR_SIZE}`;
    const result = await runTool([
      tools.ffmpegPath,
      '-v',
      'error',
      '-i',
      input,
      '-frames:v',
      '1',
      '-vf',
      scale,
      '-c:v',
      'libwebp',
      '-quality',
      '85',
      '-f',
      'webp',
      'pipe:1',
    ]);
    if (result.exitCode !== 0 || result.stdout.length === 0) throw unreadable();
    return result.stdout;
  } finally {
    rmSync(input, { force: true });
  }
}
