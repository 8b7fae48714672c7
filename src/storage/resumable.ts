import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import { ID_PATTERN } from '../contract/limits';
import type { LocalCopy, Storage } from './storage';

/** An unfinished resumable upload is removed this long after it was created. */
export const RESUMABLE_EXPIRY_MS = 24 * 60 * 60 * 1000;
export const RESUMABLE_PREFIX = 'resumable';

/** An upload id as the server makes them; anything else (it comes from the URL) is no upload of ours. */
const UPLOAD_ID = ID_PATTERN;
const checkedId = (id: string) => {
  if (!UPLOAD_ID.test(id)) throw ERRORS.FILE_NOT_FOUND;
  return id;
};

/**
 * Where resumable (tus) uploads keep their bytes until the last one lands, for the upload route and the cleanup chore:
 * `tus` is the @tus/server data store, `finished` a local file of a complete upload (for ffprobe, then moved into
 * storage), `forget` removes what is left of it, `expire` the unfinished ones older than a day.
 */
export type ResumableStore = {
  tus: DataStore;
  finished(id: string): Promise<LocalCopy>;
  forget(id: string): Promise<void>;
  expire(): Promise<number>;
};

/**
 * The local driver's: @tus/server's file store in DATA_DIR/resumable, one file per upload appended in place (no
 * copy when it completes: the file is moved into storage as the original).
 */
export function localResumableStore(directory: string): ResumableStore {
  mkdirSync(directory, { recursive: true });
  const tus = new FileStore({ directory, expirationPeriodInMilliseconds: RESUMABLE_EXPIRY_MS });
  const pathOf = (id: string) => join(directory, checkedId(id));
  return {
    tus,
    async finished(id) {
      return { path: pathOf(id), release() {} };
    },
    async forget(id) {
      rmSync(pathOf(id), { force: true });
      rmSync(`${pathOf(id)}.json`, { force: true });
    },
    expire: () => tus.deleteExpired(),
  };
}

type Part = { start: number; size: number; key: string };

/**
 * A tus data store on storage (S3), so an upload started on one server process can go on and finish on another:
 * `resumable/<id>/info.json` describes it, and each PATCH's bytes become one part `resumable/<id>/<offset>.part`
 * (received into SCRATCH_DIR first, so bytes that arrived before a connection dropped are kept). The offset is where
 * the parts, listed with their sizes, stop being contiguous; the finished file is the parts in order.
 */
export class StorageResumableStore extends DataStore {
  constructor(
    private readonly storage: Storage,
    private readonly scratchDir: string,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration'];
  }

  private infoKey = (id: string) => `${RESUMABLE_PREFIX}/${checkedId(id)}/info.json`;
  private partKey = (id: string, offset: number) =>
    `${RESUMABLE_PREFIX}/${checkedId(id)}/${String(offset).padStart(15, '0')}.part`;

  private async info(id: string): Promise<Omit<Upload, 'sizeIsDeferred'>> {
    const body = await this.storage.get(this.infoKey(id));
    if (!body) throw ERRORS.FILE_NOT_FOUND;
    return JSON.parse(await new Response(body).text());
  }

  /** The parts in order of their first byte. */
  async parts(id: string): Promise<Part[]> {
    const files = await this.storage.listFiles(`${RESUMABLE_PREFIX}/${checkedId(id)}`);
    return files
      .filter((file) => file.key.endsWith('.part'))
      .map((file) => ({ key: file.key, size: file.size, start: Number(file.key.split('/').at(-1)?.slice(0, 15)) }))
      .sort((a, b) => a.start - b.start || b.size - a.size);
  }

  /** Bytes received without a gap from the start (a part a dropped request stored late may overlap another). */
  private static offsetOf(parts: Part[]) {
    let offset = 0;
    for (const part of parts) {
      if (part.start > offset) break;
      offset = Math.max(offset, part.start + part.size);
    }
    return offset;
  }

  override async create(upload: Upload) {
    const info = { ...upload, offset: 0, creation_date: upload.creation_date ?? new Date().toISOString() };
    await this.storage.put(this.infoKey(upload.id), new TextEncoder().encode(JSON.stringify(info)));
    return upload;
  }

  override async getUpload(id: string) {
    const info = await this.info(id);
    return new Upload({ ...info, offset: StorageResumableStore.offsetOf(await this.parts(id)) });
  }

  override async write(readable: import('node:stream').Readable, id: string, offset: number) {
    const partKey = this.partKey(id, offset);
    const dir = join(this.scratchDir, 'resumable');
    mkdirSync(dir, { recursive: true });
    const temp = join(dir, `${checkedId(id)}-${randomBytes(6).toString('hex')}.part`);
    let received = 0;
    let failure: unknown;
    try {
      await pipeline(
        readable,
        new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            received += chunk.length;
            callback(null, chunk);
          },
        }),
        createWriteStream(temp),
      );
    } catch (error) {
      failure = error;
    }
    try {
      // What arrived before a connection dropped is kept, as the file store keeps it.
      if (received > 0) await this.storage.putFile(partKey, temp);
    } finally {
      rmSync(temp, { force: true });
    }
    if (failure) throw ERRORS.FILE_WRITE_ERROR;
    return offset + received;
  }

  override async declareUploadLength(id: string, size: number) {
    const info = await this.info(id);
    await this.storage.put(this.infoKey(id), new TextEncoder().encode(JSON.stringify({ ...info, size })));
  }

  override async remove(id: string) {
    await this.info(id);
    await this.storage.deletePrefix(`${RESUMABLE_PREFIX}/${checkedId(id)}`);
  }

  override getExpiration() {
    return RESUMABLE_EXPIRY_MS;
  }

  override async deleteExpired() {
    let removed = 0;
    for (const id of await this.storage.list(RESUMABLE_PREFIX)) {
      if (!UPLOAD_ID.test(id)) continue;
      const upload = await this.getUpload(id).catch(() => undefined);
      const created = upload?.creation_date ? Date.parse(upload.creation_date) : 0;
      if (upload && upload.size === upload.offset) continue; // complete: its request is turning it into a video
      if (Date.now() - created < RESUMABLE_EXPIRY_MS) continue;
      await this.storage.deletePrefix(`${RESUMABLE_PREFIX}/${id}`);
      removed++;
    }
    return removed;
  }

  /** The complete upload as one local file: the one part itself when there is one, else the parts joined. */
  async finished(id: string): Promise<LocalCopy> {
    const parts = await this.parts(id);
    if (parts.length === 1 && parts[0].start === 0) {
      const copy = await this.storage.localCopy(parts[0].key);
      if (copy) return copy;
    }
    const dir = join(this.scratchDir, 'resumable');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${checkedId(id)}-${randomBytes(6).toString('hex')}.whole`);
    writeFileSync(path, new Uint8Array(0));
    try {
      let offset = 0;
      for (const part of parts) {
        if (part.start + part.size <= offset) continue;
        if (part.start > offset) throw ERRORS.FILE_NOT_FOUND;
        const copy = await this.storage.localCopy(part.key);
        if (!copy) throw ERRORS.FILE_NOT_FOUND;
        try {
          await pipeline(
            createReadStream(copy.path, { start: offset - part.start }),
            createWriteStream(path, { flags: 'a' }),
          );
          offset = part.start + part.size;
        } finally {
          copy.release();
        }
      }
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
    return { path, release: () => rmSync(path, { force: true }) };
  }
}

/** S3's: every byte of an unfinished upload in the bucket, so any server process can take it on. */
export function storageResumableStore(storage: Storage, scratchDir: string): ResumableStore {
  const tus = new StorageResumableStore(storage, scratchDir);
  return {
    tus,
    finished: (id) => tus.finished(id),
    forget: (id) => storage.deletePrefix(`${RESUMABLE_PREFIX}/${checkedId(id)}`),
    expire: () => tus.deleteExpired(),
  };
}
