import { eq } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { type User, users } from '../db/schema';
import { ApiError, forbidden } from '../errors';

type Policy = Pick<Config, 'adminEmail' | 'teacherSignup' | 'teacherEmailDomains'>;

/**
 * What a new account may do: the administrator is ADMIN_EMAIL, or without it the first account of a fresh
 * install; a teacher is approved at once when sign-ups are open, their address is in TEACHER_EMAIL_DOMAINS,
 * or they are the administrator, and waits for approval otherwise.
 */
export function newAccountStanding(policy: Policy, email: string, role: User['role'], isFirstAccount: boolean) {
  const isAdmin = policy.adminEmail ? email === policy.adminEmail : isFirstAccount;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const teacherStatus: User['teacherStatus'] =
    role !== 'teacher'
      ? null
      : isAdmin || policy.teacherSignup === 'open' || policy.teacherEmailDomains.includes(domain)
        ? 'approved'
        : 'pending';
  return { isAdmin, teacherStatus };
}

/** At start: the account of ADMIN_EMAIL, if it exists, is an administrator. */
export async function ensureConfiguredAdmin(db: Db, policy: Policy) {
  if (!policy.adminEmail) return undefined;
  const [row] = await db
    .update(users)
    .set({ isAdmin: true })
    .where(eq(users.email, policy.adminEmail))
    .returning({ id: users.id });
  return row?.id;
}

export const accountDisabled = () => new ApiError(403, 'account_disabled', 'errors.accountDisabled');

/** Creating classes and uploading need an approved teacher. */
export function assertApprovedTeacher(user: User) {
  if (user.role !== 'teacher') throw forbidden('errors.onlyTeachers');
  if (user.teacherStatus === 'pending') {
    throw forbidden('errors.teacherPending');
  }
  if (user.teacherStatus !== 'approved') {
    throw forbidden('errors.teacherDeclined');
  }
}
