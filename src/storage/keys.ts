import { join } from 'node:path';

/**
 * Every storage key and scratch path is built here, from ids and numbers the server made, never from
 * user text. Keys use `/` whatever the platform; scratch paths are local folders for work in progress.
 */
const assertId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`Refusing to build a key from id ${JSON.stringify(id)}`);
  return id;
};
const assertIndex = (n: number) => {
  if (!Number.isInteger(n) || n < 0 || n > 99_999) throw new Error(`Refusing to build a key from number ${n}`);
  return n;
};

export const AVATARS_PREFIX = 'avatars';
export const avatarKey = (userId: string) => `${AVATARS_PREFIX}/${assertId(userId)}.webp`;
export const UPLOADS_PREFIX = 'uploads';
/** The original upload, kept until transcoding succeeds. */
export const sourceKey = (videoId: string) => `${UPLOADS_PREFIX}/${assertId(videoId)}.source`;
export const VIDEOS_PREFIX = 'videos';
/** Where a finished video's HLS files live. */
export const videoPrefix = (videoId: string) => `${VIDEOS_PREFIX}/${assertId(videoId)}`;

/**
 * A video's rung remuxed into one MP4 for offline viewing (media/download.ts): inside the video's folder, so it goes
 * with the video's files, and named after its download row, so a new one never overwrites a file being read.
 */
export const downloadKey = (videoId: string, downloadId: string) =>
  `${videoPrefix(videoId)}/downloads/${assertId(downloadId)}.mp4`;

/** A slide's thumbnail (src/media/slides-job.ts), in its video's folder: it goes with the video. */
export const slideThumbnailKey = (videoId: string, slideId: string) =>
  `${videoPrefix(videoId)}/slides/${assertId(slideId)}.webp`;
/** The folder of a video's slide thumbnails. */
export const slideThumbnailPrefix = (videoId: string) => `${videoPrefix(videoId)}/slides`;

/** The slide index's work in progress (a rung's frames), one folder per attempt, under SCRATCH_DIR. */
export const slidesScratchDir = (scratch: string) => join(scratch, 'slides');

/** Half-received uploads and other short-lived files, under SCRATCH_DIR; emptied at start. */
export const tempDir = (scratch: string) => join(scratch, 'tmp');
/** Transcodes in progress, one folder per video, under SCRATCH_DIR. */
export const scratchRoot = (scratch: string) => join(scratch, 'transcodes');
/** Where ffmpeg writes while transcoding; each finished file is published to storage as it comes. */
export const scratchDir = (scratch: string, videoId: string) => join(scratchRoot(scratch), assertId(videoId));

/** Where a download job joins and remuxes a rung (under the temp folder, so a killed job's leftovers are swept). */
export const downloadScratchDir = (scratch: string, attempt: string) =>
  join(tempDir(scratch), `download-${assertId(attempt)}`);

export type MediaFile =
  | { kind: 'poster' }
  | { kind: 'playlist'; rung: number }
  | {
      kind: 'init';
      rung: number /** `init.mp4`: the name one-rung videos got before 0.2 (kept servable). */;
      legacy?: true;
    }
  | { kind: 'segment'; rung: number; index: number };

/** The name of a media file inside a video's folder (`/`-separated). */
export function mediaFileName(file: MediaFile): string {
  switch (file.kind) {
    case 'poster':
      return 'poster.jpg';
    case 'playlist':
      return `${assertIndex(file.rung)}/index.m3u8`;
    case 'init':
      return file.legacy
        ? `${assertIndex(file.rung)}/init.mp4`
        : `${assertIndex(file.rung)}/init_${assertIndex(file.rung)}.mp4`;
    case 'segment':
      return `${assertIndex(file.rung)}/seg_${String(assertIndex(file.index)).padStart(5, '0')}.m4s`;
  }
}

export const mediaKey = (videoId: string, file: MediaFile) => `${videoPrefix(videoId)}/${mediaFileName(file)}`;

/** Parses the part of a media URL after the video id; anything not shaped like our own files is undefined. */
export function parseMediaPath(rest: string): MediaFile | 'master' | undefined {
  if (rest === 'master.m3u8') return 'master';
  if (rest === 'poster.jpg') return { kind: 'poster' };
  const match = /^(\d)\/(?:(index\.m3u8)|init_(\d)\.mp4|seg_(\d{5})\.m4s|(init\.mp4))$/.exec(rest);
  if (!match) return undefined;
  const rung = Number(match[1]);
  if (match[5]) return { kind: 'init', rung, legacy: true };
  if (match[2]) return { kind: 'playlist', rung };
  if (match[3] !== undefined) return Number(match[3]) === rung ? { kind: 'init', rung } : undefined;
  return { kind: 'segment', rung, index: Number(match[4]) };
}
