import { createHmac, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from '../contract/limits';

/**
 * The one-click unsubscribe token in every notification mail (RFC 8058): the user id and an HMAC of it and the
 * purpose under the server secret. It does not expire (a link in a year-old mail still works) and does nothing but
 * set that person's notification email to `none`, so it needs no session.
 */
const PURPOSE = 'notifications-unsubscribe';

const mac = (secret: Uint8Array, userId: string) =>
  createHmac('sha256', secret).update(`${PURPOSE}\u0000${userId}`).digest('base64url');

export function unsubscribeToken(secret: Uint8Array, userId: string) {
  return `${userId}.${mac(secret, userId)}`;
}

/** The user id a token was made for, or undefined when it is not one this server signed. */
export function readUnsubscribeToken(secret: Uint8Array, token: string): string | undefined {
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const userId = token.slice(0, dot);
  if (!ID_PATTERN.test(userId)) return undefined;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, userId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? userId : undefined;
}
