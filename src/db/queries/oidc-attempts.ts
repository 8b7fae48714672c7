import { lt } from 'drizzle-orm';
import type { Db } from '../client';
import { oidcAttempts } from '../schema';

/** A school sign-in has this long to come back from the provider. */
export const OIDC_ATTEMPT_LIFETIME_MS = 10 * 60 * 1000;

/** Forgets school sign-ins that never came back (each new sign-in, and the worker's periodic sweep). */
export async function deleteEndedOidcAttempts(db: Db, now = Date.now()) {
  await db.delete(oidcAttempts).where(lt(oidcAttempts.createdAt, now - OIDC_ATTEMPT_LIFETIME_MS));
}
