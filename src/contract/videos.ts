import type { Video } from '../db/schema';

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
  return /^\/media\/videos\/([A-Za-z0-9_-]{1,64})\/master\.m3u8$/.exec(path)?.[1];
}

/** A video's processing state as lectures and the status endpoint show it. */
export function toVideoJson(video: Video) {
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

export type VideoJson = ReturnType<typeof toVideoJson>;
export type VideoStatus = Video['status'];
/** What an upload answers. */
export type UploadJson = { masterPlaylist: string; videoId: string; video: VideoJson };
