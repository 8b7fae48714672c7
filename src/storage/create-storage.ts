import type { Config } from '../config';
import { createS3Storage } from './s3';
import { createLocalStorage, type Storage } from './storage';

/** The one storage of a process, as the settings choose it: DATA_DIR on the local disk, or STORAGE_URL's bucket. */
export function createStorage(config: Pick<Config, 'dataDir' | 'scratchDir' | 'storage'>): Storage {
  if (config.storage.kind === 's3') return createS3Storage({ ...config.storage, scratchDir: config.scratchDir });
  return createLocalStorage(config.dataDir);
}
