import { Hono } from 'hono';
import { z } from 'zod';
import { checkCode, forgetSent, issueCode, resendWait } from '../auth/email-codes';
import { requireUser } from '../auth/middleware';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/password';
import { signToken } from '../auth/tokens';
import { LIMITS, OTP_PATTERN } from '../contract/limits';
import { toPrivateUser } from '../contract/users';
import { deleteUser, findUserByEmail, updateUser, upsertUnverifiedUser } from '../db/queries/users';
import type { User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, tooMany, unauthorized } from '../errors';
import { createRateLimiter } from '../http/rate-limit';
import { validate } from '../http/validation';
import { verificationCodeMail } from '../mail/templates';

export const emailField = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .max(LIMITS.emailMax, 'Email is too long.')
  .pipe(z.email('Please enter a valid email address.'));
export const newPasswordField = z
  .string({ error: 'Password is required.' })
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters.`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters.`);
export const usernameField = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(LIMITS.usernameMin, `Name must be at least ${LIMITS.usernameMin} characters.`)
  .max(LIMITS.usernameMax, `Name must be at most ${LIMITS.usernameMax} characters.`);

const registerBody = z.object({
  username: usernameField,
  email: emailField,
  password: newPasswordField,
  role: z.enum(['teacher', 'student'], { error: 'Role must be teacher or student.' }).default('student'),
});
const loginBody = z.object({
  email: emailField,
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(LIMITS.passwordMax),
});
const verifyBody = z.object({
  email: emailField,
  otp: z
    .string({ error: 'Please enter the OTP sent to your email' })
    .trim()
    .regex(OTP_PATTERN, 'The code is the 6 digits from the email.'),
});
const resendBody = z.object({ email: emailField });

/** Sign-up, email codes, login and the current user. */
export function accountsRoutes(deps: AppDeps) {
  const { db, config, mailer } = deps;
  const failedLogins = createRateLimiter(10, 15 * 60 * 1000);
  const tokenFor = (user: User) => signToken(config.jwtSecret, { userId: user.id, tokenVersion: user.tokenVersion });

  /** Issues a fresh code and mails it; a failed send frees the resend wait so the user can try again. */
  async function sendCode(user: User) {
    const code = await issueCode(db, user.id);
    try {
      await mailer.send(verificationCodeMail(user.email, user.username, code));
    } catch (error) {
      console.error(`[mail] could not send the verification code to ${user.email}:`, (error as Error).message);
      await forgetSent(db, user.id);
      throw new ApiError(503, 'mail_failed', 'We could not send the verification email. Please try again in a minute.');
    }
  }

  return new Hono<AppEnv>()
    .post('/register', validate('json', registerBody), async (c) => {
      const body = c.req.valid('json');
      const existing = await findUserByEmail(db, body.email);
      if (existing?.emailVerifiedAt) {
        throw new ApiError(409, 'email_taken', 'An account with this email already exists. Please log in.');
      }
      const passwordHash = await hashPassword(body.password);
      // An unverified account may be claimed again: only the owner of the address can finish verifying it.
      const user = await upsertUnverifiedUser(db, existing, {
        username: body.username,
        email: body.email,
        passwordHash,
        role: body.role,
      });
      try {
        await sendCode(user);
      } catch (error) {
        // A new account whose code could not be sent is removed, so signing up again starts clean.
        if (!existing) await deleteUser(db, user.id);
        throw error;
      }
      return c.json(
        {
          requiresVerification: true,
          email: user.email,
          message: 'Registration successful! Please verify your email with the OTP sent.',
        },
        201,
      );
    })

    .post('/login', validate('json', loginBody), async (c) => {
      const body = c.req.valid('json');
      const blockedFor = failedLogins.waitFor(body.email);
      if (blockedFor > 0) {
        throw tooMany(
          `Too many failed attempts. Please try again in ${Math.ceil(blockedFor / 60)} minutes.`,
          blockedFor,
        );
      }
      const user = await findUserByEmail(db, body.email);
      const ok = user
        ? await verifyPassword(body.password, user.passwordHash)
        : await verifyAgainstDummy(body.password);
      if (!user || !ok) {
        failedLogins.hit(body.email);
        // The same answer for an unknown email and a wrong password, so nobody can probe for accounts.
        throw unauthorized('Invalid email or password');
      }
      failedLogins.reset(body.email);
      if (!user.emailVerifiedAt) {
        if ((await resendWait(db, user.id)) === 0) await sendCode(user);
        throw new ApiError(403, 'email_not_verified', 'Please verify your email. We sent a code to your inbox.', {
          requiresVerification: true,
          email: user.email,
        });
      }
      return c.json({ token: await tokenFor(user), user: toPrivateUser(user), message: 'Login successful!' });
    })

    .post('/verify-otp', validate('json', verifyBody), async (c) => {
      const body = c.req.valid('json');
      const user = await findUserByEmail(db, body.email);
      const invalid = 'This code is not valid. Please ask for a new one.';
      if (!user) throw badRequest('invalid_code', invalid);
      if (user.emailVerifiedAt) throw badRequest('already_verified', 'This email is already verified. Please log in.');
      const result = await checkCode(db, user.id, body.otp);
      if (result === 'missing') throw badRequest('invalid_code', invalid);
      if (result === 'expired') throw badRequest('code_expired', 'This code has expired. Please ask for a new one.');
      if (result === 'used_up') {
        throw badRequest('code_used_up', 'Too many wrong codes. Please ask for a new one.');
      }
      if (result !== 'ok') {
        const tries = result.wrong === 1 ? '1 try' : `${result.wrong} tries`;
        throw badRequest('wrong_code', `That code is not right. ${tries} left.`);
      }
      const verified = await updateUser(db, user.id, { emailVerifiedAt: Date.now() });
      return c.json({
        token: await tokenFor(verified),
        user: toPrivateUser(verified),
        message: 'Email verified successfully!',
      });
    })

    .post('/resend-otp', validate('json', resendBody), async (c) => {
      const body = c.req.valid('json');
      const user = await findUserByEmail(db, body.email);
      if (user && !user.emailVerifiedAt) {
        const wait = await resendWait(db, user.id);
        if (wait > 0) {
          const seconds = Math.ceil(wait / 1000);
          throw tooMany(`Please wait ${seconds} seconds before asking for a new code.`, seconds);
        }
        await sendCode(user);
      }
      // Unknown and already verified addresses get the same answer, so it reveals no account.
      return c.json({ message: 'A new OTP has been sent to your email' });
    })

    .get('/', requireUser(deps), (c) => c.json(toPrivateUser(c.get('user'))));
}
