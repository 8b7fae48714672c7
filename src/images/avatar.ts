import sharp from 'sharp';
import { badRequest } from '../errors';

export const MAX_AVATAR_BYTES = 5 * 1024 * 1024;
export const AVATAR_SIZE = 256;

/** Which raster format the bytes really are, from their signature; undefined for anything else (SVG included). */
export function rasterFormat(bytes: Uint8Array): 'jpeg' | 'png' | 'gif' | 'webp' | undefined {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.slice(8, 12)) === 'WEBP') return 'webp';
  return undefined;
}

/** Re-encodes an uploaded picture to a square WebP, so no uploaded byte is ever served as it came. */
export async function toAvatar(bytes: Uint8Array): Promise<Buffer> {
  if (!rasterFormat(bytes)) {
    throw badRequest('not_an_image', 'Please choose a JPEG, PNG, GIF or WebP image.');
  }
  try {
    return await sharp(bytes, { limitInputPixels: 40_000_000, animated: false })
      .rotate()
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
      .webp({ quality: 85 })
      .toBuffer();
  } catch {
    throw badRequest('unreadable_image', 'This image could not be read. Please choose another one.');
  }
}
