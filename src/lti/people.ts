import { and, eq } from 'drizzle-orm';
import { type FederatedSignIn, findOrCreateFederatedUser } from '../auth/federated';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { userIdentities } from '../db/schema';

/**
 * The account of an LMS person, keyed by (issuer, sub) through the federated-account module, for a launch or a
 * roster: its email is a placeholder at `lti.invalid` (never mailed, never an existing account's), and the LMS's
 * email is only kept on the identity, so a password account with that email is never entered nor blocked.
 */
export async function lmsAccount(
  db: Db,
  policy: Pick<Config, 'adminEmail' | 'teacherSignup' | 'teacherEmailDomains'>,
  person: { issuer: string; subject: string; name: string | undefined; email: string | undefined; teaches: boolean },
): Promise<FederatedSignIn> {
  const result = await findOrCreateFederatedUser(
    db,
    { ...policy, allowedDomains: [], checkHostedDomain: false },
    {
      issuer: person.issuer,
      subject: person.subject,
      email: placeholderEmail(person.issuer, person.subject),
      emailVerified: true,
      name: person.name,
      hostedDomain: undefined,
      teacherByClaim: person.teaches,
    },
  );
  if (result.kind === 'ok' && person.email) {
    await db
      .update(userIdentities)
      .set({ email: person.email.toLowerCase() })
      .where(and(eq(userIdentities.issuer, person.issuer), eq(userIdentities.subject, person.subject)));
  }
  return result;
}

/** A stable address for an LMS account that no one can receive mail at (RFC 2606 `.invalid`). */
export function placeholderEmail(issuer: string, subject: string) {
  const hash = new Bun.CryptoHasher('sha256').update(`${issuer}\n${subject}`).digest('hex').slice(0, 32);
  return `lti-${hash}@lti.invalid`;
}
