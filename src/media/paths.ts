import { join } from 'node:path';

/** Every media file path is built here from ids and numbers the server made, never from user text. */
const assertId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`Refusing to build a path from id ${JSON.stringify(id)}`);
  return id;
};
const assertIndex = (n: number) => {
  if (!Number.isInteger(n) || n < 0 || n > 99_999) throw new Error(`Refusing to build a path from number ${n}`);
  return n;
};

export const avatarsDir = (dataDir: string) => join(dataDir, 'avatars');
export const avatarFile = (dataDir: string, userId: string) => join(avatarsDir(dataDir), `${assertId(userId)}.webp`);
export const tempDir = (dataDir: string) => join(dataDir, 'tmp');

export const uploadsDir = (dataDir: string) => join(dataDir, 'uploads');
/** The original upload, kept until transcoding succeeds. */
export const sourceFile = (dataDir: string, videoId: string) =>
  join(uploadsDir(dataDir), `${assertId(videoId)}.source`);

export const videosDir = (dataDir: string) => join(dataDir, 'videos');
/** Where a finished video's HLS files live. */
export const videoDir = (dataDir: string, videoId: string) => join(videosDir(dataDir), assertId(videoId));
/** Where ffmpeg writes while transcoding; served while growing, renamed to videoDir when complete. */
export const workDir = (dataDir: string, videoId: string) => join(videosDir(dataDir), `${assertId(videoId)}.work`);

export type MediaFile =
  | { kind: 'poster' }
  | { kind: 'playlist'; rung: number }
  | { kind: 'init'; rung: number }
  | { kind: 'segment'; rung: number; index: number };

/** The file name of a media file inside a video's folder. */
export function mediaFileName(file: MediaFile): string {
  switch (file.kind) {
    case 'poster':
      return 'poster.jpg';
    case 'playlist':
      return join(String(assertIndex(file.rung)), 'index.m3u8');
    case 'init':
      return join(String(assertIndex(file.rung)), `init_${assertIndex(file.rung)}.mp4`);
    case 'segment':
      return join(String(assertIndex(file.rung)), `seg_${String(assertIndex(file.index)).padStart(5, '0')}.m4s`);
  }
}

/** Parses the part of a media URL after the video id; anything not shaped like our own files is undefined. */
export function parseMediaPath(rest: string): MediaFile | 'master' | undefined {
  if (rest === 'master.m3u8') return 'master';
  if (rest === 'poster.jpg') return { kind: 'poster' };
  const match = /^(\d)\/(?:(index\.m3u8)|init_(\d)\.mp4|seg_(\d{5})\.m4s)$/.exec(rest);
  if (!match) return undefined;
  const rung = Number(match[1]);
  if (match[2]) return { kind: 'playlist', rung };
  if (match[3] !== undefined) return Number(match[3]) === rung ? { kind: 'init', rung } : undefined;
  return { kind: 'segment', rung, index: Number(match[4]) };
}
