import type { Db } from '../db/client';
import { ltiPlatforms } from '../db/schema';

/**
 * The origins that may frame the app's pages an LTI launch opens: each registered LMS's issuer and sign-in
 * origins (Moodle and Brightspace serve their pages from there), and the origins signed launches named as their
 * return address (Canvas frames from the school's own instructure.com host, which is neither: docs/lti.md).
 */
export async function ltiFrameOrigins(db: Db): Promise<string[]> {
  const rows = await db
    .select({
      issuer: ltiPlatforms.issuer,
      authLoginUrl: ltiPlatforms.authLoginUrl,
      frameOrigins: ltiPlatforms.frameOrigins,
    })
    .from(ltiPlatforms);
  const origins = new Set<string>();
  for (const row of rows) {
    for (const url of [row.issuer, row.authLoginUrl, ...(JSON.parse(row.frameOrigins) as string[])]) {
      try {
        origins.add(new URL(url).origin);
      } catch {
        // an issuer that is not a URL frames nothing
      }
    }
  }
  return [...origins];
}
