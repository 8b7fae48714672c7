import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { localResumableStore, RESUMABLE_PREFIX, type ResumableStore } from './resumable';

/** A byte range, both ends included. */
export type ByteRange = { start: number; end: number };
export type StoredFile = { size: number; modifiedAt: number };
/** A file somewhere under a prefix, with its full key. */
export type ListedFile = StoredFile & { key: string };
/** What `get` answers: a Blob (a local file) or a stream (a remote object), either one a Response can carry. */
export type StoredBody = Blob | ReadableStream<Uint8Array>;
/** A local file to read (ffmpeg, ffprobe); `release` removes it when it was a download. */
export type LocalCopy = { path: string; release(): void };

/**
 * Every media and avatar file goes through this one interface, addressed by keys that only
 * `storage/keys.ts` builds (from ids, never from user text). One type, one constructor per engine,
 * as PocketBase's tools/filesystem has NewLocal and NewS3: an S3-compatible driver implements the same.
 */
export interface Storage {
  /** Writes the bytes under `key` atomically: readers see the old file or the whole new one. */
  put(key: string, data: Uint8Array | Blob): Promise<void>;
  /** Moves a finished local file in (the scratch copy is gone afterwards). */
  putFile(key: string, localPath: string): Promise<void>;
  /** Moves a finished local folder in under `prefix`, replacing what was there. */
  putFolder(prefix: string, localDir: string): Promise<void>;
  /** The file (or the bytes of `range`), or undefined when there is no such key. */
  get(key: string, range?: ByteRange): Promise<StoredBody | undefined>;
  stat(key: string): Promise<StoredFile | undefined>;
  /** Names directly under `prefix` (files and sub-prefixes), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Every file under `prefix`, at any depth, with its size: what the admin console's figures add up. */
  listFiles(prefix: string): Promise<ListedFile[]>;
  delete(key: string): Promise<void>;
  /** Removes every key under `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * A local file ffmpeg can read the key from: the local driver's own file (release does nothing), or a download
   * into the scratch folder, or into `into` (the caller's own scratch folder, so cleaning that folder cleans the
   * download too; release removes it). Undefined when there is no such key.
   */
  localCopy(key: string, into?: string): Promise<LocalCopy | undefined>;
  /**
   * A URL that reads the key without the app for `seconds` (remote drivers only: the local disk has none);
   * `contentDisposition` is what the answer's Content-Disposition says (an offline download's file name).
   */
  presign?(key: string, seconds: number, options?: { contentDisposition?: string }): string;
  /** Where resumable (tus) uploads keep their bytes until they are complete. */
  resumable(): ResumableStore;
  /** `local` or `s3`, for logs and the admin console. */
  readonly kind: 'local' | 's3';
}

/** Adds up the sizes of every file under `prefix`. */
export async function prefixBytes(storage: Storage, prefix: string): Promise<number> {
  let bytes = 0;
  for (const file of await storage.listFiles(prefix)) bytes += file.size;
  return bytes;
}

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

/** Refuses anything that is not a plain relative key: no `..`, no absolute path, no empty part. */
export function assertKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Refusing storage key ${JSON.stringify(key)}`);
  }
  return key;
}

/** Files on the local disk under `root` (DATA_DIR). */
export function createLocalStorage(root: string): Storage {
  const pathOf = (key: string) => join(root, assertKey(key));
  const moveIn = (from: string, to: string) => {
    mkdirSync(dirname(to), { recursive: true });
    try {
      renameSync(from, to);
    } catch (error) {
      // Another filesystem (scratch on a different mount): copy, then remove the scratch copy.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      cpSync(from, to, { recursive: true });
      rmSync(from, { recursive: true, force: true });
    }
  };
  return {
    kind: 'local',
    async put(key, data) {
      const path = pathOf(key);
      mkdirSync(dirname(path), { recursive: true });
      const temp = `${path}.${randomBytes(6).toString('hex')}.part`;
      try {
        await Bun.write(temp, data);
        renameSync(temp, path);
      } catch (error) {
        rmSync(temp, { force: true });
        throw error;
      }
    },
    async putFile(key, localPath) {
      moveIn(localPath, pathOf(key));
    },
    async putFolder(prefix, localDir) {
      const path = pathOf(prefix);
      rmSync(path, { recursive: true, force: true });
      moveIn(localDir, path);
    },
    async get(key, range) {
      const file = Bun.file(pathOf(key));
      if (!(await file.exists())) return undefined;
      return range ? file.slice(range.start, range.end + 1) : file;
    },
    async stat(key) {
      try {
        const stats = statSync(pathOf(key));
        return stats.isFile() ? { size: stats.size, modifiedAt: stats.mtimeMs } : undefined;
      } catch {
        return undefined;
      }
    },
    async list(prefix) {
      const path = prefix === '' ? root : pathOf(prefix);
      return existsSync(path) ? readdirSync(path).sort() : [];
    },
    async listFiles(prefix) {
      const start = prefix === '' ? root : pathOf(prefix);
      const files: ListedFile[] = [];
      const walk = (dir: string) => {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          return;
        }
        for (const name of names) {
          const path = join(dir, name);
          try {
            const stats = statSync(path);
            if (stats.isDirectory()) walk(path);
            // Half-written `.part` files of a put in progress are not stored files yet.
            else if (stats.isFile() && !name.endsWith('.part')) {
              const key = relative(root, path).split(sep).join('/');
              files.push({ key, size: stats.size, modifiedAt: stats.mtimeMs });
            }
          } catch {
            // removed while we looked
          }
        }
      };
      walk(start);
      return files.sort((a, b) => (a.key < b.key ? -1 : 1));
    },
    async delete(key) {
      rmSync(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      rmSync(pathOf(prefix), { recursive: true, force: true });
    },
    async localCopy(key) {
      const path = pathOf(key);
      return existsSync(path) ? { path, release() {} } : undefined;
    },
    resumable: () => localResumableStore(pathOf(RESUMABLE_PREFIX)),
  };
}
