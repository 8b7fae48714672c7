import { z } from 'zod';
import type { User } from '../db/schema';
import { LIMITS, OTP_PATTERN } from './limits';
import { LOCALE_CODES, type Locale } from './locales';
import { plainText } from './text';

export const PLACEHOLDER_AVATAR = '/placeholder-avatar.svg';

export function avatarUrl(user: Pick<User, 'id' | 'avatarVersion'>): string {
  return user.avatarVersion > 0 ? `/api/users/${user.id}/avatar?v=${user.avatarVersion}` : PLACEHOLDER_AVATAR;
}

/** When the server wrote something: an ISO 8601 time in UTC. */
export const isoTime = z.iso.datetime();

/** The current user as the client sees it: never the hash or the token version. */
export const privateUserJson = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['teacher', 'student']),
  profilePictureImageLink: z.string(),
  isVerified: z.boolean(),
  /** Beyond the spec: the administrator of this server. */
  isAdmin: z.boolean().describe('Beyond the spec: the administrator of this server.'),
  /** Beyond the spec: for teachers, whether the administrator approved them (`pending` can't create classes). */
  teacherStatus: z
    .enum(['approved', 'pending', 'declined'])
    .nullable()
    .describe(
      "Beyond the spec: for teachers, whether the administrator approved them (`pending` can't create classes).",
    ),
  createdAt: isoTime,
  /** Beyond the spec: the language chosen in Settings; null follows the browser. */
  locale: z.string().nullable().describe('Beyond the spec: the language chosen in Settings; null follows the browser'),
});
export type PrivateUserJson = z.infer<typeof privateUserJson>;

export function toPrivateUser(user: User): PrivateUserJson {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    profilePictureImageLink: avatarUrl(user),
    isVerified: user.emailVerifiedAt !== null,
    isAdmin: user.isAdmin,
    teacherStatus: user.teacherStatus,
    createdAt: new Date(user.createdAt).toISOString(),
    locale: user.locale,
  };
}

/** Another user, as shown beside a comment or in the teacher's progress table. */
export const publicUserJson = z.object({ _id: z.string(), username: z.string(), profilePictureImageLink: z.string() });
export type PublicUserJson = z.infer<typeof publicUserJson>;

export function toPublicUser(user: Pick<User, 'id' | 'username' | 'avatarVersion'>): PublicUserJson {
  return { _id: user.id, username: user.username, profilePictureImageLink: avatarUrl(user) };
}

export type Role = User['role'];

/** The answer that only says what happened (`{ message }`), and the one that also names what was removed. */
export const messageJson = z.object({ message: z.string() });
export const removedJson = z.object({ message: z.string(), _id: z.string() });
export type MessageJson = z.infer<typeof messageJson>;

/** What login, verify-otp and reset-password answer. */
export const signInJson = z.object({ token: z.string(), user: privateUserJson, message: z.string() });
export type SignInJson = z.infer<typeof signInJson>;

/** What sign-up answers: the account waits for the code sent to `email`. */
export const registeredJson = z.object({
  requiresVerification: z.literal(true),
  email: z.string(),
  message: z.string(),
});

/** Logging out; `endSessionUrl` (OIDC_END_SESSION) is where the web may go on to sign out at the school too. */
export const loggedOutJson = z.object({ message: z.string(), endSessionUrl: z.string().optional() });

/** A changed password: the fresh token of this session (other sessions ended). */
export const passwordChangedJson = z.object({ message: z.string(), token: z.string() });

/** `GET /api/auth/providers`: the ways to sign in this server offers. */
export const providersJson = z.object({ password: z.boolean(), oidc: z.object({ label: z.string() }).nullable() });
export type ProvidersJson = z.infer<typeof providersJson>;

/** `GET /api/users/sign-in-methods`: the signed-in user's ways in. */
export const signInMethodsJson = z.object({
  password: z.boolean(),
  school: z.array(z.object({ id: z.string(), email: z.string().nullable(), linkedAt: z.number() })),
  schoolLabel: z.string().nullable(),
});
export type SignInMethodsJson = z.infer<typeof signInMethodsJson>;

/** `GET`/`PUT /api/users/notifications`: the person's choice of notification email. */
export const emailChoiceJson = z.object({ email: z.enum(['every', 'daily', 'none']) });
export type EmailChoiceJson = z.infer<typeof emailChoiceJson>;

// What the account routes take: the forms of the web app check the same schemas before sending.

export const emailField = z
  .string({ error: 'fields.emailRequired' })
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax, 'fields.emailTooLong')
  .pipe(z.email('fields.emailInvalid'));
export const newPasswordField = z
  .string({ error: 'fields.passwordRequired' })
  .min(LIMITS.passwordMin, 'fields.passwordTooShort')
  .max(LIMITS.passwordMax, 'fields.passwordTooLong');
export const usernameField = plainText({
  required: 'fields.nameRequired',
  tooShort: 'fields.nameTooShort',
  tooLong: 'fields.nameTooLong',
  min: LIMITS.usernameMin,
  max: LIMITS.usernameMax,
  hidden: 'fields.nameHidden',
});

export const roleField = z.enum(['teacher', 'student'], { error: 'fields.role' });
export const registerBody = z.object({
  username: usernameField,
  email: emailField,
  password: newPasswordField,
  role: roleField.default('student'),
});
export const loginBody = z.object({
  email: emailField,
  password: z
    .string({ error: 'fields.passwordRequired' })
    .min(1, 'fields.passwordRequired')
    .max(LIMITS.passwordMax, 'fields.passwordTooLong'),
});
export const otpField = z.string({ error: 'fields.otpRequired' }).trim().regex(OTP_PATTERN, 'fields.otpDigits');
/**
 * `password`, `username`, `role`: chosen with the code when it is typed away from the browser that signed up, where
 * all three are required; what is sent wins over what the sign-up stored (docs/accounts.md).
 */
export const verifyBody = z.object({
  email: emailField,
  otp: otpField,
  password: newPasswordField.optional(),
  username: usernameField.optional(),
  role: roleField.optional(),
});
export const emailBody = z.object({ email: emailField });
export const resetBody = z.object({ email: emailField, otp: otpField, newPassword: newPasswordField });

/**
 * The current password is required of an account that has one; an account made by school sign-in has none and
 * proves itself with a fresh school sign-in instead (src/auth/reauth.ts). Same shapes as the spec's.
 */
export const currentPasswordField = z.string().max(LIMITS.passwordMax).optional();
export const passwordBody = z.object({ currentPassword: currentPasswordField, newPassword: newPasswordField });
/** Settings → Language: one of the product's languages (the route then checks the school offers it), or null. */
export const localeField = z.enum(LOCALE_CODES as [Locale, ...Locale[]], { error: 'fields.localeUnknown' }).nullable();
/** The name, the language, or both (the spec's client sends only `username`). */
export const profileBody = z
  .object({ username: usernameField.optional(), locale: localeField.optional() })
  .refine((body) => body.username !== undefined || body.locale !== undefined, 'fields.profileNothingToChange');
export const deleteAccountBody = z.object({ password: currentPasswordField });
