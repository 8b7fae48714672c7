import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config';
import { createStorage } from './create-storage';
import { prefixBytes, type Storage } from './storage';
import { startS3Server } from './test-s3-server';

const text = async (body: Blob | ReadableStream<Uint8Array> | undefined) =>
  body === undefined ? undefined : new Response(body).text();

let s3: Awaited<ReturnType<typeof startS3Server>>;
const folders: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3.close();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh storage of each driver, made as main.ts makes it: from settings. */
function makeStorage(driver: 'local' | 's3') {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-storage-'));
  folders.push(dataDir);
  const config = loadConfig({ DATA_DIR: dataDir, ...(driver === 's3' ? s3.env() : {}) });
  const storage = createStorage(config);
  expect(storage.kind).toBe(driver);
  return { storage, config, dataDir };
}

/** A local folder like the one a transcode leaves. */
function scratchFolder(dataDir: string, files: Record<string, string>) {
  const dir = mkdtempSync(join(dataDir, 'folder-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

describe.each(['local', 's3'] as const)('%s storage', (driver) => {
  let storage: Storage;
  let dataDir: string;
  beforeAll(() => {
    ({ storage, dataDir } = makeStorage(driver));
  });

  test('put, get, stat, replace', async () => {
    await storage.put('avatars/u1.webp', new TextEncoder().encode('first'));
    expect(await text(await storage.get('avatars/u1.webp'))).toBe('first');
    await storage.put('avatars/u1.webp', new Blob(['second, longer']));
    expect(await text(await storage.get('avatars/u1.webp'))).toBe('second, longer');
    const stat = await storage.stat('avatars/u1.webp');
    expect(stat?.size).toBe(14);
    expect(Math.abs((stat?.modifiedAt ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(await storage.get('avatars/nobody.webp')).toBeUndefined();
    expect(await storage.stat('avatars/nobody.webp')).toBeUndefined();
  });

  test('byte ranges', async () => {
    await storage.put('videos/r1/0/seg_00001.m4s', new TextEncoder().encode('0123456789'));
    expect(await text(await storage.get('videos/r1/0/seg_00001.m4s', { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await storage.get('videos/r1/0/seg_00001.m4s', { start: 9, end: 9 }))).toBe('9');
    expect(await text(await storage.get('videos/r1/0/seg_00001.m4s', { start: 0, end: 9 }))).toBe('0123456789');
    expect(await storage.get('videos/r1/0/seg_00002.m4s', { start: 0, end: 1 })).toBeUndefined();
  });

  test('putFile moves a local file in', async () => {
    const path = join(dataDir, 'incoming.upload');
    writeFileSync(path, 'source bytes');
    await storage.putFile('uploads/v1.source', path);
    expect(existsSync(path)).toBe(false);
    expect(await text(await storage.get('uploads/v1.source'))).toBe('source bytes');
  });

  test('putFolder replaces a prefix, list and listFiles give names and sizes', async () => {
    const first = scratchFolder(dataDir, { 'master.m3u8': 'old', '0/index.m3u8': 'old', '0/seg_00009.m4s': 'gone' });
    await storage.putFolder('videos/f1', first);
    expect(existsSync(first)).toBe(false);
    const second = scratchFolder(dataDir, {
      'master.m3u8': 'master',
      'poster.jpg': 'jpeg',
      '0/index.m3u8': 'rung 0',
      '0/seg_00001.m4s': '12345',
      '1/seg_00001.m4s': '123',
    });
    await storage.putFolder('videos/f1', second);
    expect(await storage.list('videos/f1')).toEqual(['0', '1', 'master.m3u8', 'poster.jpg']);
    expect(await storage.list('videos/f1/0')).toEqual(['index.m3u8', 'seg_00001.m4s']);
    expect(await text(await storage.get('videos/f1/0/index.m3u8'))).toBe('rung 0');
    expect(await storage.stat('videos/f1/0/seg_00009.m4s')).toBeUndefined();
    const files = await storage.listFiles('videos/f1');
    expect(files.map((file) => [file.key, file.size])).toEqual([
      ['videos/f1/0/index.m3u8', 6],
      ['videos/f1/0/seg_00001.m4s', 5],
      ['videos/f1/1/seg_00001.m4s', 3],
      ['videos/f1/master.m3u8', 6],
      ['videos/f1/poster.jpg', 4],
    ]);
    expect(await prefixBytes(storage, 'videos/f1')).toBe(24);
    expect(await storage.list('videos/none')).toEqual([]);
    expect(await storage.listFiles('videos/none')).toEqual([]);
  });

  test('delete and deletePrefix', async () => {
    await storage.put('videos/d1/0/seg_00001.m4s', new Blob(['a']));
    await storage.put('videos/d1/poster.jpg', new Blob(['b']));
    await storage.put('videos/d10/poster.jpg', new Blob(['kept: another video whose id starts alike']));
    await storage.delete('videos/d1/poster.jpg');
    await storage.delete('videos/d1/poster.jpg'); // deleting what is gone is no error
    expect(await storage.stat('videos/d1/poster.jpg')).toBeUndefined();
    await storage.deletePrefix('videos/d1');
    expect(await storage.listFiles('videos/d1')).toEqual([]);
    expect(await storage.stat('videos/d10/poster.jpg')).toBeDefined();
  });

  test('localCopy gives ffmpeg a file, and release cleans a download up', async () => {
    await storage.put('uploads/c1.source', new Blob(['the original']));
    const copy = await storage.localCopy('uploads/c1.source');
    if (!copy) throw new Error('no copy');
    expect(readFileSync(copy.path, 'utf8')).toBe('the original');
    copy.release();
    // The local driver's copy is its own file, kept; a downloaded one is removed.
    expect(existsSync(copy.path)).toBe(driver === 'local');
    expect(await storage.localCopy('uploads/none.source')).toBeUndefined();
  });

  test('presign: a short-lived URL on S3 that reads ranges; none on the local disk', async () => {
    await storage.put('videos/p1/0/seg_00001.m4s', new Blob(['presigned bytes']));
    if (driver === 'local') {
      expect(storage.presign).toBeUndefined();
      return;
    }
    const url = storage.presign?.('videos/p1/0/seg_00001.m4s', 60) ?? '';
    expect(url).toContain('X-Amz-Expires=60');
    const answer = await fetch(url, { headers: { range: 'bytes=0-8' } });
    expect(answer.status).toBe(206);
    expect(await answer.text()).toBe('presigned');
    expect(answer.headers.get('content-type')).toBe('video/iso.segment');
  });

  test('keys that are not plain relative keys are refused before any I/O', async () => {
    for (const key of ['../outside', '/etc/passwd', 'videos/../../x', 'videos//x', '.hidden']) {
      await expect(storage.put(key, new Blob(['x']))).rejects.toThrow('Refusing storage key');
      await expect(storage.get(key)).rejects.toThrow('Refusing storage key');
      await expect(storage.deletePrefix(key)).rejects.toThrow('Refusing storage key');
    }
    expect(existsSync(join(dataDir, '..', 'outside'))).toBe(false);
  });
});

test('S3 keys live under the STORAGE_URL prefix and never on the local disk', async () => {
  const { storage, dataDir } = makeStorage('s3');
  const before = s3.objectCount();
  await storage.put('videos/k1/poster.jpg', new Blob(['jpeg']));
  expect(s3.objectCount()).toBe(before + 1);
  expect(existsSync(join(dataDir, 'videos'))).toBe(false);
  // Another prefix of the same bucket is another storage.
  const other = makeStorage('s3').storage;
  expect(await other.stat('videos/k1/poster.jpg')).toBeUndefined();
  expect(await other.list('videos')).toEqual([]);
});

test('settings: STORAGE_URL picks S3, a bad one is refused, unset is the local disk', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-storage-'));
  folders.push(dataDir);
  expect(loadConfig({ DATA_DIR: dataDir }).storage).toEqual({ kind: 'local' });
  const s3Config = loadConfig({ DATA_DIR: dataDir, STORAGE_URL: 's3://media-bucket/school/a' });
  expect(s3Config.storage).toMatchObject({ kind: 's3', bucket: 'media-bucket', prefix: 'school/a' });
  // AWS itself (no endpoint) is virtual-hosted; an endpoint of your own is path-style unless told otherwise.
  expect(s3Config.storage).toMatchObject({ forcePathStyle: false });
  for (const url of ['s3://', 'http://bucket', 's3://Bucket', 's3://bucket/../x', 's3://bucket/a b']) {
    expect(() => loadConfig({ DATA_DIR: dataDir, STORAGE_URL: url })).toThrow('STORAGE_URL');
  }
  expect(loadConfig({ DATA_DIR: dataDir }).scratchDir).toBe(join(dataDir, 'scratch'));
  expect(() => loadConfig({ DATA_DIR: dataDir, MEDIA_DELIVERY: 'cdn' })).toThrow('MEDIA_DELIVERY');
  expect(() => loadConfig({ DATA_DIR: dataDir, MEDIA_DELIVERY: 'redirect' })).toThrow('needs STORAGE_URL');
  expect(loadConfig({ DATA_DIR: dataDir, STORAGE_URL: 's3://b-1', MEDIA_DELIVERY: 'redirect' }).mediaDelivery).toBe(
    'redirect',
  );
  for (const seconds of ['10', '100000', 'soon']) {
    expect(() => loadConfig({ DATA_DIR: dataDir, SEGMENT_TOKEN_SECONDS: seconds })).toThrow('SEGMENT_TOKEN_SECONDS');
  }
});

test('a bucket that is not there is an error to report, not a missing file', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-storage-'));
  folders.push(dataDir);
  const storage = createStorage(loadConfig({ DATA_DIR: dataDir, ...s3.env(), STORAGE_URL: 's3://no-such-bucket/x' }));
  await expect(storage.stat('videos/v1/poster.jpg')).rejects.toThrow();
  await expect(storage.get('videos/v1/poster.jpg')).rejects.toThrow();
  await expect(storage.put('videos/v1/poster.jpg', new Blob(['x']))).rejects.toThrow();
  await expect(storage.list('videos')).rejects.toThrow();
});
