import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes to a temp file beside the target and renames it into place, so readers never see half a file. */
export async function writeFileAtomic(path: string, data: Uint8Array): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.part`;
  try {
    await Bun.write(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
