import { createHmac, timingSafeEqual } from 'node:crypto';
import { TOKEN_FOLDER_SOURCE } from '../contract/media-token';

/** `{expiry}.{hmac}/` at the start of a media path: the token folder the master playlist points into. */
const TOKEN_FOLDER = new RegExp(`^${TOKEN_FOLDER_SOURCE}/(.+)$`);

export type TokenCheck = { rest: string; state: 'valid' | 'expired' | 'forged' };

/**
 * Signed path tokens for a video's rung playlists and segments: the master playlist (made per request, after the
 * session and class checks) points into `…/videos/{id}/{expiry}.{hmac}/`, and the relative URLs in it carry the token
 * to every rung playlist and segment. Checking one is an HMAC of the video id and the expiry (a key derived from the
 * server's secret): no database read. A token is good until its expiry, so someone removed from a class keeps the
 * segments of a video they had open until then (SEGMENT_TOKEN_SECONDS; docs/video-pipeline.md).
 */
export function segmentTokens(secret: Uint8Array, lifetimeSeconds: number) {
  const key = createHmac('sha256', secret).update('classroom segment token v1').digest();
  const sign = (videoId: string, expiry: number) =>
    createHmac('sha256', key).update(`${videoId}/${expiry}`).digest('base64url').slice(0, 22);
  return {
    lifetimeSeconds,
    /** A token for the video, good for `lifetimeSeconds` from `now`. */
    issue(videoId: string, now = Date.now()) {
      const expiry = Math.floor(now / 1000) + lifetimeSeconds;
      return `${expiry}.${sign(videoId, expiry)}`;
    },
    /** The path after the token folder and what the token is worth; undefined when the path has none. */
    check(videoId: string, path: string, now = Date.now()): TokenCheck | undefined {
      const match = TOKEN_FOLDER.exec(path);
      if (!match) return undefined;
      const expiry = Number(match[1]);
      const expected = Buffer.from(sign(videoId, expiry));
      const given = Buffer.from(match[2]);
      if (!timingSafeEqual(expected, given)) return { rest: match[3], state: 'forged' };
      return { rest: match[3], state: expiry * 1000 > now ? 'valid' : 'expired' };
    },
  };
}
