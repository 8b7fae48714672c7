import { TOKEN_FOLDER_SOURCE } from '@contract/media-token';

/** A media path's signed token folder (`/{expiry}.{hmac}/`): rung playlists, init files and segments. */
const SIGNED_FOLDER = new RegExp(`/${TOKEN_FOLDER_SOURCE}/`);

/**
 * Sent ahead of a token's expiry: the server reads the bearer only once the token has expired, so sending it early
 * costs nothing, and a phone whose clock runs up to this far behind the server's still sends it in time.
 */
export const EXPIRY_MARGIN_MS = 2 * 60_000;

/**
 * Whether the player's request for `url` carries the bearer. In an LMS's frame a browser may keep no cookie, so the
 * bearer is the session: the master playlist's check reads it. Under a token folder the signed token is the check
 * (no session, no database), until it expires; a player left open longer (a paused lecture, 10 minutes by default)
 * then falls back to the session check, which needs the bearer again. Never to another origin (S3, a CDN).
 */
export function wantsBearer(url: string, here: string, now: number): boolean {
  const address = new URL(url, here);
  if (address.origin !== new URL(here).origin) return false;
  const folder = SIGNED_FOLDER.exec(address.pathname);
  return !folder || Number(folder[1]) * 1000 - EXPIRY_MARGIN_MS <= now;
}
