import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalStorage } from '../storage/storage';
import { createPublisher, playlistFiles } from './publish';

const root = mkdtempSync(join(tmpdir(), 'classroom-publish-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const playlist = (segments: string[], end = false) =>
  [
    '#EXTM3U',
    '#EXT-X-VERSION:7',
    '#EXT-X-PLAYLIST-TYPE:EVENT',
    '#EXT-X-MAP:URI="init_0.mp4"',
    ...segments.flatMap((name) => ['#EXTINF:4.000000,', name]),
    ...(end ? ['#EXT-X-ENDLIST'] : []),
    '',
  ].join('\n');

test('playlistFiles: the init file and the segments, in order', () => {
  expect(playlistFiles(playlist(['seg_00000.m4s', 'seg_00001.m4s']))).toEqual([
    'init_0.mp4',
    'seg_00000.m4s',
    'seg_00001.m4s',
  ]);
});

test('segments, then the playlist cut at them, are published as ffmpeg lists them; the end adds the rest', async () => {
  const storage = createLocalStorage(join(root, 'data'));
  const work = join(root, 'work');
  mkdirSync(join(work, '0'), { recursive: true });
  const write = (name: string, text: string) => writeFileSync(join(work, name), text);
  const publisher = createPublisher(storage, 'v1', work, 1);
  const text = async (key: string) => new Response(await storage.get(key)).text();

  publisher.kick(); // nothing written yet: nothing published
  await publisher.settle();
  expect(publisher.playable()).toBe(false);

  write('0/init_0.mp4', 'init');
  write('0/seg_00000.m4s', 'first');
  write('0/seg_00001.m4s', 'second, still being written');
  write('0/index.m3u8', playlist(['seg_00000.m4s']));
  publisher.kick();
  await publisher.settle();
  expect(publisher.playable()).toBe(true);
  expect(await text('videos/v1/0/index.m3u8')).toBe(playlist(['seg_00000.m4s']));
  expect(await text('videos/v1/0/seg_00000.m4s')).toBe('first');
  // A segment the playlist does not list yet stays where ffmpeg writes it.
  expect(await storage.stat('videos/v1/0/seg_00001.m4s')).toBeUndefined();
  expect(existsSync(join(work, '0/seg_00000.m4s'))).toBe(false);
  expect(publisher.sizes.get('0/seg_00000.m4s')).toBe(5);

  write('0/seg_00001.m4s', 'second');
  write('0/index.m3u8', playlist(['seg_00000.m4s', 'seg_00001.m4s'], true));
  write('poster.jpg', 'jpeg');
  await publisher.finish('#EXTM3U\n');
  expect(await text('videos/v1/0/index.m3u8')).toContain('#EXT-X-ENDLIST');
  expect(await text('videos/v1/0/seg_00001.m4s')).toBe('second');
  expect(await text('videos/v1/master.m3u8')).toBe('#EXTM3U\n');
  expect(await text('videos/v1/poster.jpg')).toBe('jpeg');
  expect(existsSync(work)).toBe(false);
});

test('a playlist naming anything but our own files publishes nothing of it, and the run fails', async () => {
  const storage = createLocalStorage(join(root, 'data2'));
  const work = join(root, 'work2');
  mkdirSync(join(work, '0'), { recursive: true });
  writeFileSync(join(root, 'secret'), 'not media');
  writeFileSync(join(work, '0/index.m3u8'), playlist(['../../secret']));
  writeFileSync(join(work, '0/init_0.mp4'), 'init');
  const publisher = createPublisher(storage, 'v2', work, 1);
  publisher.kick();
  await publisher.settle();
  await expect(publisher.finish('#EXTM3U\n')).rejects.toThrow('Unexpected file');
  expect(await storage.listFiles('videos/v2')).toEqual([expect.objectContaining({ key: 'videos/v2/0/init_0.mp4' })]);
  expect(existsSync(join(root, 'secret'))).toBe(true);
});
