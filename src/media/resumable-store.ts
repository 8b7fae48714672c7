import { mkdirSync } from 'node:fs';
import { FileStore } from '@tus/file-store';
import { resumableDir } from '../storage/keys';

/** An unfinished resumable upload is removed this long after it was created. */
export const RESUMABLE_EXPIRY_MS = 24 * 60 * 60 * 1000;

/** The tus file store of a data folder: the upload route writes into it, the cleanup chore expires it. */
export function resumableStore(dataDir: string) {
  const directory = resumableDir(dataDir);
  mkdirSync(directory, { recursive: true });
  return new FileStore({ directory, expirationPeriodInMilliseconds: RESUMABLE_EXPIRY_MS });
}

/** Removes unfinished uploads older than a day; answers how many. */
export async function expireResumableUploads(dataDir: string) {
  return resumableStore(dataDir).deleteExpired();
}
