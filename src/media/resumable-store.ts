import type { Storage } from '../storage/storage';

/** Removes unfinished resumable uploads older than a day (the cleanup chore); answers how many. */
export async function expireResumableUploads(storage: Storage) {
  return storage.resumable().expire();
}
