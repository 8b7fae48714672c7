import { and, asc, eq, ne } from 'drizzle-orm';
import type { Config } from '../config';
import { LIMITS } from '../contract/limits';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/dialect';
import { type User, type UserIdentity, userIdentities, users } from '../db/schema';
import { transaction } from '../db/transaction';
import { newId } from '../lib/ids';
import { newAccountStanding } from './standing';

/**
 * Accounts that sign in through another system (a school's OpenID Connect provider today; an LTI 1.3 launch from
 * Moodle or Canvas could come through here too): who may enter, the account a first sign-in makes, linking and
 * unlinking. It knows nothing of the protocol: the caller checked the answer and hands over a FederatedProfile.
 *
 * The rule that keeps accounts safe (docs/accounts.md): an account is found by (issuer, subject), never by email.
 * A first sign-in whose email belongs to an existing account is refused (`email_in_use`); the owner signs in with
 * their password and links the school account from Settings (`linkIdentity`, from a signed-in session only).
 */

/** What the other system says about the person, already checked (signature, audience, nonce...). */
export type FederatedProfile = {
  issuer: string;
  subject: string;
  /** Lower-case; undefined when the system gave none. */
  email: string | undefined;
  /** Only `true` counts: anything else is refused (a provider may let people type any address). */
  emailVerified: boolean;
  name: string | undefined;
  /** The domain the system vouches for (Google's `hd`); the email's domain is used without it. */
  hostedDomain: string | undefined;
  /** The system says this person teaches (OIDC_TEACHER_CLAIM holds one of OIDC_TEACHER_VALUES). */
  teacherByClaim: boolean;
};

export type FederatedRefusal = 'email_unverified' | 'domain_not_allowed' | 'email_in_use' | 'account_disabled';

type Policy = Pick<Config, 'adminEmail' | 'teacherSignup' | 'teacherEmailDomains'>;

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * Who may enter: a verified email, and (with allowed domains) a domain on the list. For Google, the domain is its
 * `hd` claim (the Workspace the account belongs to), never the address typed into a personal account.
 */
export function admissionProblem(
  profile: FederatedProfile,
  allowedDomains: readonly string[],
  checkHostedDomain: boolean,
): 'email_unverified' | 'domain_not_allowed' | undefined {
  if (!profile.email || profile.emailVerified !== true) return 'email_unverified';
  if (allowedDomains.length === 0) return undefined;
  const domain = checkHostedDomain ? profile.hostedDomain?.toLowerCase() : domainOf(profile.email);
  return domain && allowedDomains.includes(domain) ? undefined : 'domain_not_allowed';
}

/** A name people can read, from what the system gave, within the app's limits (never empty). */
export function displayName(profile: FederatedProfile): string {
  const cleaned = (profile.name ?? '')
    .replace(/[\p{Cc}\u200B-\u200D\u2060\uFEFF\u202A-\u202E\u2066-\u2069]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, LIMITS.usernameMax)
    .trim();
  if (cleaned.length >= LIMITS.usernameMin) return cleaned;
  const local = (profile.email ?? '').split('@')[0].slice(0, LIMITS.usernameMax);
  return local.length >= LIMITS.usernameMin ? local : 'School user';
}

/**
 * The role and standing of an account made at a first sign-in: a teacher when the system says so, or when the
 * email's domain is in TEACHER_EMAIL_DOMAINS (unless TEACHER_SIGNUP=closed); a student otherwise. ADMIN_EMAIL (or,
 * without it, the first account of a fresh install) is the administrator, as for a password sign-up.
 */
export function federatedStanding(policy: Policy, profile: FederatedProfile, email: string, isFirstAccount: boolean) {
  const byDomain = policy.teacherSignup !== 'closed' && policy.teacherEmailDomains.includes(domainOf(email));
  const role: User['role'] = profile.teacherByClaim || byDomain ? 'teacher' : 'student';
  const standing = newAccountStanding(policy, email, role, isFirstAccount);
  // The school's own directory said "teacher": that is the approval.
  if (profile.teacherByClaim) standing.teacherStatus = 'approved';
  return { role, ...standing };
}

export async function findIdentity(db: Db, issuer: string, subject: string) {
  const [row] = await db
    .select()
    .from(userIdentities)
    .where(and(eq(userIdentities.issuer, issuer), eq(userIdentities.subject, subject)))
    .limit(1);
  return row;
}

export type FederatedSignIn =
  | { kind: 'ok'; user: User; created: boolean }
  | { kind: 'refused'; problem: FederatedRefusal; userId?: string };

/**
 * The account of a sign-in: the one linked to (issuer, subject), or a new one made from the profile. Never an
 * existing account found by email. The identity's email is refreshed on each sign-in (shown in Settings).
 */
export async function findOrCreateFederatedUser(
  db: Db,
  policy: Policy & { allowedDomains: readonly string[]; checkHostedDomain: boolean },
  profile: FederatedProfile,
  now = Date.now(),
): Promise<FederatedSignIn> {
  const problem = admissionProblem(profile, policy.allowedDomains, policy.checkHostedDomain);
  if (problem) return { kind: 'refused', problem };
  try {
    return await signInOrCreate(db, policy, profile, now);
  } catch (error) {
    // Two first sign-ins of one person at once (two tabs): the second finds what the first made.
    if (!isUniqueViolation(error)) throw error;
    return signInOrCreate(db, policy, profile, now);
  }
}

function signInOrCreate(db: Db, policy: Policy, profile: FederatedProfile, now: number): Promise<FederatedSignIn> {
  const email = profile.email as string;
  return transaction(db, async (tx) => {
    // The email is read before the identity: on PostgreSQL each statement sees what was committed before it, so a
    // twin first sign-in that committed in between shows as the identity below, never as someone else's email.
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    const identity = await findIdentity(tx, profile.issuer, profile.subject);
    if (identity) {
      const [user] = await tx.select().from(users).where(eq(users.id, identity.userId)).limit(1);
      if (user.disabledAt) return { kind: 'refused', problem: 'account_disabled', userId: user.id };
      if (identity.email !== email) {
        await tx.update(userIdentities).set({ email }).where(eq(userIdentities.id, identity.id));
      }
      return { kind: 'ok', user: user as User, created: false };
    }
    if (taken) return { kind: 'refused', problem: 'email_in_use', userId: taken.id };
    const isFirstAccount = (await tx.$count(users)) === 0;
    const [user] = await tx
      .insert(users)
      .values({
        id: newId(),
        username: displayName(profile),
        email,
        // No password: password login refuses '' (src/auth/password.ts); the school account is the way in.
        passwordHash: '',
        ...federatedStanding(policy, profile, email, isFirstAccount),
        emailVerifiedAt: now,
      })
      .returning();
    await tx.insert(userIdentities).values({
      id: newId(),
      userId: (user as User).id,
      issuer: profile.issuer,
      subject: profile.subject,
      email,
      createdAt: now,
    });
    return { kind: 'ok', user: user as User, created: true };
  });
}

/**
 * Links the identity to a signed-in user (Settings → Linked sign-in). `already_linked` when it signs in to
 * another account; linking the same one again only refreshes its email. The email need not match the account's:
 * the person proved both, the password by their session and the school account at the provider.
 */
export async function linkIdentity(
  db: Db,
  userId: string,
  profile: Pick<FederatedProfile, 'issuer' | 'subject' | 'email'>,
  now = Date.now(),
): Promise<{ kind: 'linked'; identity: UserIdentity } | { kind: 'already_linked' }> {
  return transaction(db, async (tx) => {
    const existing = await findIdentity(tx, profile.issuer, profile.subject);
    if (existing && existing.userId !== userId) return { kind: 'already_linked' as const };
    if (existing) {
      const [identity] = await tx
        .update(userIdentities)
        .set({ email: profile.email ?? existing.email })
        .where(eq(userIdentities.id, existing.id))
        .returning();
      return { kind: 'linked' as const, identity: identity as UserIdentity };
    }
    const [identity] = await tx
      .insert(userIdentities)
      .values({
        id: newId(),
        userId,
        issuer: profile.issuer,
        subject: profile.subject,
        email: profile.email ?? null,
        createdAt: now,
      })
      .returning();
    return { kind: 'linked' as const, identity: identity as UserIdentity };
  });
}

/** A password is a way in: '' marks an account made by a school sign-in. */
export const hasPassword = (user: Pick<User, 'passwordHash'>) => user.passwordHash !== '';

/**
 * Unlinks one of the user's identities; `last_method` when it is the only way left to sign in (no password and
 * no other identity); `not_found` for an id that is not the user's. Refusals change nothing.
 */
export async function unlinkIdentity(
  db: Db,
  userId: string,
  identityId: string,
): Promise<'unlinked' | 'not_found' | 'last_method'> {
  return transaction(db, async (tx) => {
    const [identity] = await tx
      .select({ id: userIdentities.id })
      .from(userIdentities)
      .where(and(eq(userIdentities.id, identityId), eq(userIdentities.userId, userId)))
      .limit(1);
    if (!identity) return 'not_found';
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    const others = await tx.$count(
      userIdentities,
      and(eq(userIdentities.userId, userId), ne(userIdentities.id, identityId)),
    );
    if (!user || (!hasPassword(user) && others === 0)) return 'last_method';
    await tx.delete(userIdentities).where(eq(userIdentities.id, identityId));
    return 'unlinked';
  });
}

/** The user's school identities, oldest first. */
export async function identitiesOf(db: Db, userId: string) {
  return db
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.createdAt), asc(userIdentities.id));
}
