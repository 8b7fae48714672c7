import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { S3Client } from 'bun';
import type { StorageSettings } from '../config';
import { storageResumableStore } from './resumable';
import { assertKey, type ListedFile, type Storage } from './storage';

/** STORAGE_URL's bucket as the settings give it (src/config.ts), and the local folder for downloads ffmpeg reads. */
export type S3Settings = Omit<Extract<StorageSettings, { kind: 's3' }>, 'kind'> & { scratchDir: string };

/** The stored Content-Type, so a presigned answer (MEDIA_DELIVERY=redirect) carries the right one. */
const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  m4s: 'video/iso.segment',
  mp4: 'video/mp4',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  json: 'application/json',
};
const typeOf = (key: string) => TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';

/** S3's answer for a key that is not there (GET says NoSuchKey, HEAD only 404). */
const isMissing = (error: unknown) => {
  const { code, message } = error as { code?: string; message?: string };
  // A missing bucket is a setup error to report, not a missing file.
  if (code === 'NoSuchBucket') return false;
  return code === 'NoSuchKey' || code === 'NotFound' || /key does not exist|not found|\b404\b/i.test(message ?? '');
};

/** S3's own trouble or a request to slow down: worth another try, as the AWS SDKs retry them. */
const TRANSIENT_CODES = new Set(['InternalError', 'SlowDown', 'ServiceUnavailable', 'RequestTimeout']);
/**
 * The connection's trouble, which the SDKs retry too: a kept-alive connection the store closed as it was reused,
 * or a reset (Bun names them as Node does, or in its own words).
 */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ConnectionClosed',
  'ConnectionReset',
  'UND_ERR_SOCKET',
]);
const isTransient = (error: unknown) => {
  const { code } = error as { code?: string };
  return code !== undefined && (TRANSIENT_CODES.has(code) || NETWORK_CODES.has(code));
};
async function retrying<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 4 || !isTransient(error)) throw error;
      await Bun.sleep(50 * 2 ** attempt);
    }
  }
}

/** How many requests a folder upload or a prefix delete keeps in flight. */
const PARALLEL = 8;
async function eachLimited<T>(items: T[], work: (item: T) => Promise<unknown>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, lane));
}

/**
 * Objects in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph, R2…) through Bun's own S3 client: the same
 * interface as the local disk, so nothing above `storage/` knows which one it has. Ranges are ranged GETs, sizes
 * come from HEAD and LIST, and `presign` lets MEDIA_DELIVERY=redirect send players straight to the bucket.
 */
export function createS3Storage(settings: S3Settings): Storage {
  const client = new S3Client({
    bucket: settings.bucket,
    endpoint: settings.endpoint,
    region: settings.region,
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    virtualHostedStyle: !settings.forcePathStyle,
  });
  const base = settings.prefix ? `${settings.prefix}/` : '';
  const objectOf = (key: string) => `${base}${assertKey(key)}`;
  /** The object prefix of a key prefix, ending in `/` (or the storage root). */
  const folderOf = (prefix: string) => (prefix === '' ? base : `${objectOf(prefix)}/`);

  /** Every object under an object prefix, page by page. */
  async function listAll(folder: string, delimiter?: string) {
    const files: { key: string; size: number; modifiedAt: number }[] = [];
    const folders: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await retrying(() => client.list({ prefix: folder, delimiter, continuationToken, maxKeys: 1000 }));
      for (const object of page.contents ?? []) {
        files.push({
          key: object.key,
          size: object.size ?? 0,
          modifiedAt: object.lastModified ? new Date(object.lastModified).getTime() : 0,
        });
      }
      for (const common of page.commonPrefixes ?? []) folders.push(common.prefix);
      continuationToken = page.isTruncated ? page.nextContinuationToken : undefined;
    } while (continuationToken);
    return { files, folders };
  }

  // A HEAD answers a bare 404 for a missing key and for a missing bucket alike: the first one is checked with a LIST
  // (which names NoSuchBucket), so a wrong STORAGE_URL fails readiness instead of looking like an empty bucket.
  let bucketSeen = false;
  const confirmBucket = async () => {
    if (bucketSeen) return;
    await retrying(() => client.list({ prefix: base, maxKeys: 1 }));
    bucketSeen = true;
  };

  const storage: Storage = {
    kind: 's3',
    async put(key, data) {
      // A PUT replaces the object whole: readers see the old one or the new one.
      await retrying(() => client.write(objectOf(key), data, { type: typeOf(key) }));
    },
    async putFile(key, localPath) {
      await retrying(() => client.write(objectOf(key), Bun.file(localPath), { type: typeOf(key) }));
      rmSync(localPath, { force: true });
    },
    async putFolder(prefix, localDir) {
      assertKey(prefix);
      const uploaded = new Set<string>();
      const paths: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else paths.push(path);
        }
      };
      walk(localDir);
      await eachLimited(paths, async (path) => {
        const key = `${prefix}/${relative(localDir, path).split(sep).join('/')}`;
        await retrying(() => client.write(objectOf(key), Bun.file(path), { type: typeOf(key) }));
        uploaded.add(objectOf(key));
      });
      // Then what the new folder does not have: readers never meet a gap.
      const { files } = await listAll(folderOf(prefix));
      await eachLimited(
        files.filter((file) => !uploaded.has(file.key)),
        (file) => retrying(() => client.delete(file.key)),
      );
      rmSync(localDir, { recursive: true, force: true });
    },
    async get(key, range) {
      const file = client.file(objectOf(key));
      const reader = (range ? file.slice(range.start, range.end + 1) : file).stream().getReader();
      // The first read sends the request: a missing key fails here, before anyone answers with it.
      let first: Awaited<ReturnType<typeof reader.read>>;
      try {
        first = await reader.read();
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      let pending: typeof first | undefined = first;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const chunk = pending ?? (await reader.read());
          pending = undefined;
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        },
        cancel(reason) {
          return reader.cancel(reason);
        },
      });
    },
    async stat(key) {
      try {
        const stat = await retrying(() => client.stat(objectOf(key)));
        bucketSeen = true;
        return { size: stat.size, modifiedAt: stat.lastModified.getTime() };
      } catch (error) {
        if (!isMissing(error)) throw error;
        await confirmBucket();
        return undefined;
      }
    },
    async list(prefix) {
      const folder = folderOf(prefix);
      const { files, folders } = await listAll(folder, '/');
      const names = [
        ...files.map((file) => file.key.slice(folder.length)),
        ...folders.map((name) => name.slice(folder.length).replace(/\/$/, '')),
      ];
      return [...new Set(names.filter(Boolean))].sort();
    },
    async listFiles(prefix) {
      const { files } = await listAll(folderOf(prefix));
      return files
        .map((file): ListedFile => ({ ...file, key: file.key.slice(base.length) }))
        .sort((a, b) => (a.key < b.key ? -1 : 1));
    },
    async delete(key) {
      try {
        await retrying(() => client.delete(objectOf(key)));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async deletePrefix(prefix) {
      const { files } = await listAll(folderOf(prefix));
      await eachLimited(files, (file) => retrying(() => client.delete(file.key)));
    },
    async localCopy(key, into) {
      const dir = into ?? join(settings.scratchDir, 'downloads');
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${randomBytes(8).toString('hex')}-${assertKey(key).replaceAll('/', '_')}`);
      try {
        // A retry writes the whole file again (Bun.write truncates), so a cut download leaves no partial copy.
        await retrying(() => Bun.write(path, client.file(objectOf(key))));
      } catch (error) {
        rmSync(path, { force: true });
        if (isMissing(error)) return undefined;
        throw error;
      }
      return { path, release: () => rmSync(path, { force: true }) };
    },
    resumable: () => storageResumableStore(storage, settings.scratchDir),
    presign(key, seconds, options) {
      return client.presign(objectOf(key), {
        expiresIn: seconds,
        method: 'GET',
        ...(options?.contentDisposition ? { contentDisposition: options.contentDisposition } : {}),
      });
    },
  };
  return storage;
}
