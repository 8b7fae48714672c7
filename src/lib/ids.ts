import { randomBytes } from 'node:crypto';

/** Opaque, unguessable, url-safe row id. */
export function newId(): string {
  return randomBytes(12).toString('base64url');
}
