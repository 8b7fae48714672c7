import { z } from 'zod';
import type { Video } from '../db/schema';
import { ID_CHARS } from './limits';

const MASTER_PLAYLIST = new RegExp(`^/media/videos/(${ID_CHARS})/master\\.m3u8$`);

/** Where a video's master playlist is served: what the client stores as the lecture's videoLink. */
export const masterPlaylistPath = (videoId: string) => `/media/videos/${videoId}/master.m3u8`;
export const posterPath = (videoId: string) => `/media/videos/${videoId}/poster.jpg`;

/** Reads the video id back from a videoLink (absolute or path-only); undefined for anything else. */
export function videoIdFromLink(link: string): string | undefined {
  let path = link;
  try {
    path = new URL(link, 'http://local').pathname;
  } catch {
    return undefined;
  }
  return MASTER_PLAYLIST.exec(path)?.[1];
}

/** A video's processing state as lectures and the status endpoint show it. */
export const videoJson = z.object({
  _id: z.string(),
  status: z.enum(['queued', 'processing', 'ready', 'failed', 'cancelled']),
  progress: z.number(),
  etaSeconds: z.number().nullable(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  /** Ready, or processing with its first rendition written: the player can start. */
  playable: z.boolean(),
  durationSeconds: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  fileName: z.string(),
  masterPlaylist: z.string(),
  posterUrl: z.string().nullable(),
});
export type VideoJson = z.infer<typeof videoJson>;

export function toVideoJson(video: Video): VideoJson {
  const playable = video.status === 'ready' || (video.status === 'processing' && video.firstPlayableAt !== null);
  return {
    _id: video.id,
    status: video.status,
    progress: video.progress,
    etaSeconds: video.etaSeconds,
    attempts: video.attempts,
    error: video.error,
    playable,
    durationSeconds: Math.round(video.durationMs / 100) / 10,
    width: video.width,
    height: video.height,
    fileName: video.sourceName,
    masterPlaylist: masterPlaylistPath(video.id),
    posterUrl: video.hasPoster ? posterPath(video.id) : null,
  };
}

export type VideoStatus = Video['status'];
/** The processing states the spec's client reads on a lecture (`processingStatus`). */
export const processingStatusJson = z.enum(['pending', 'processing', 'completed', 'failed']);

/** What an upload answers; `lectureId` and `processingStatus` when it named a topic. */
export const uploadJson = z.object({
  masterPlaylist: z.string(),
  videoId: z.string(),
  video: videoJson,
  lectureId: z.string().optional(),
  processingStatus: processingStatusJson.optional(),
});
export type UploadJson = z.infer<typeof uploadJson>;

/** The least of a video a trim keeps, in seconds. */
export const TRIM_MIN_SECONDS = 1;

/**
 * `PATCH /api/videos/{id}/trim`: keep the video from `start` to `end` (seconds of the recording as uploaded). The
 * route checks `end` against the video's duration; sending the whole length back undoes a trim.
 */
export const videoTrimBody = z
  .object({
    start: z.number({ error: 'fields.trimStartInvalid' }).finite().min(0, 'fields.trimStartInvalid'),
    end: z.number({ error: 'fields.trimEndInvalid' }).finite().positive('fields.trimEndInvalid'),
  })
  .refine((trim) => trim.end - trim.start >= TRIM_MIN_SECONDS, { message: 'fields.trimTooShort', path: ['end'] });
export type VideoTrimBody = z.infer<typeof videoTrimBody>;
