import { eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import { checkCode, issueCode, resendWait } from '../auth/email-codes';
import { requireUser } from '../auth/middleware';
import {
  hashPassword,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  verifyAgainstDummy,
  verifyPassword,
} from '../auth/password';
import { signToken } from '../auth/tokens';
import { type User, users } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, forbidden, notFound, tooMany, unauthorized } from '../errors';
import { writeFileAtomic } from '../files';
import { newId } from '../ids';
import { MAX_AVATAR_BYTES, toAvatar } from '../images/avatar';
import { verificationCodeMail } from '../mail/templates';
import { avatarFile, tempDir } from '../media/paths';
import { createRateLimiter } from '../rate-limit';
import { idParam, validate } from '../validation';

export const PLACEHOLDER_AVATAR = '/placeholder-avatar.svg';

const email = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long.')
  .pipe(z.email('Please enter a valid email address.'));
const password = z
  .string({ error: 'Password is required.' })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, `Password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
const username = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(2, 'Name must be at least 2 characters.')
  .max(40, 'Name must be at most 40 characters.');

const registerBody = z.object({
  username,
  email,
  password,
  role: z.enum(['teacher', 'student'], { error: 'Role must be teacher or student.' }).default('student'),
});
const loginBody = z.object({
  email,
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(MAX_PASSWORD_LENGTH),
});
const verifyBody = z.object({
  email,
  otp: z
    .string({ error: 'Please enter the OTP sent to your email' })
    .trim()
    .regex(/^\d{6}$/, 'The code is the 6 digits from the email.'),
});
const resendBody = z.object({ email });
const passwordBody = z.object({
  currentPassword: z.string({ error: 'Current password is required.' }).min(1).max(MAX_PASSWORD_LENGTH),
  newPassword: password,
});
const profileBody = z.object({ username });

export function avatarUrl(user: Pick<User, 'id' | 'avatarVersion'>): string {
  return user.avatarVersion > 0 ? `/api/users/${user.id}/avatar?v=${user.avatarVersion}` : PLACEHOLDER_AVATAR;
}

/** The current user as the client sees it: never the hash or the token version. */
export function toPrivateUser(user: User) {
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    profilePictureImageLink: avatarUrl(user),
    isVerified: user.emailVerifiedAt !== null,
    createdAt: new Date(user.createdAt).toISOString(),
  };
}

/** Another user, as shown beside a comment or on a class card. */
export function toPublicUser(user: Pick<User, 'id' | 'username' | 'avatarVersion'>) {
  return { _id: user.id, username: user.username, profilePictureImageLink: avatarUrl(user) };
}

export function usersRoutes(deps: AppDeps) {
  const { db, config, mailer } = deps;
  const failedLogins = createRateLimiter(10, 15 * 60 * 1000);
  const auth = requireUser(deps);

  const findByEmail = (address: string) => db.select().from(users).where(eq(users.email, address)).get();
  const tokenFor = (user: User) => signToken(config.jwtSecret, { userId: user.id, tokenVersion: user.tokenVersion });

  /** Issues a fresh code and mails it; a failed send frees the resend wait so the user can try again. */
  async function sendCode(user: User) {
    const code = issueCode(db, user.id);
    try {
      await mailer.send(verificationCodeMail(user.email, user.username, code));
    } catch (error) {
      console.error(`[mail] could not send the verification code to ${user.email}:`, (error as Error).message);
      db.run(sql`UPDATE email_codes SET sent_at = 0 WHERE user_id = ${user.id}`);
      throw new ApiError(503, 'mail_failed', 'We could not send the verification email. Please try again in a minute.');
    }
  }

  const ensureSelf = (caller: User, id: string) => {
    if (caller.id !== id) throw forbidden('You can only change your own account.');
  };

  return new Hono<AppEnv>()
    .post('/register', validate('json', registerBody), async (c) => {
      const body = c.req.valid('json');
      const existing = findByEmail(body.email);
      if (existing?.emailVerifiedAt) {
        throw new ApiError(409, 'email_taken', 'An account with this email already exists. Please log in.');
      }
      const passwordHash = await hashPassword(body.password);
      // An unverified account may be claimed again: only the owner of the address can finish verifying it.
      const user = existing
        ? db
            .update(users)
            .set({ username: body.username, passwordHash, role: body.role })
            .where(eq(users.id, existing.id))
            .returning()
            .get()
        : db
            .insert(users)
            .values({ id: newId(), username: body.username, email: body.email, passwordHash, role: body.role })
            .returning()
            .get();
      try {
        await sendCode(user);
      } catch (error) {
        // A new account whose code could not be sent is removed, so signing up again starts clean.
        if (!existing) db.delete(users).where(eq(users.id, user.id)).run();
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
      const user = findByEmail(body.email);
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
        if (resendWait(db, user.id) === 0) await sendCode(user);
        throw new ApiError(403, 'email_not_verified', 'Please verify your email. We sent a code to your inbox.', {
          requiresVerification: true,
          email: user.email,
        });
      }
      return c.json({ token: await tokenFor(user), user: toPrivateUser(user), message: 'Login successful!' });
    })

    .post('/verify-otp', validate('json', verifyBody), async (c) => {
      const body = c.req.valid('json');
      const user = findByEmail(body.email);
      const invalid = 'This code is not valid. Please ask for a new one.';
      if (!user) throw badRequest('invalid_code', invalid);
      if (user.emailVerifiedAt) throw badRequest('already_verified', 'This email is already verified. Please log in.');
      const result = checkCode(db, user.id, body.otp);
      if (result === 'missing') throw badRequest('invalid_code', invalid);
      if (result === 'expired') throw badRequest('code_expired', 'This code has expired. Please ask for a new one.');
      if (result === 'used_up') {
        throw badRequest('code_used_up', 'Too many wrong codes. Please ask for a new one.');
      }
      if (result !== 'ok') {
        const tries = result.wrong === 1 ? '1 try' : `${result.wrong} tries`;
        throw badRequest('wrong_code', `That code is not right. ${tries} left.`);
      }
      const verified = db
        .update(users)
        .set({ emailVerifiedAt: Date.now() })
        .where(eq(users.id, user.id))
        .returning()
        .get();
      return c.json({
        token: await tokenFor(verified),
        user: toPrivateUser(verified),
        message: 'Email verified successfully!',
      });
    })

    .post('/resend-otp', validate('json', resendBody), async (c) => {
      const body = c.req.valid('json');
      const user = findByEmail(body.email);
      if (user && !user.emailVerifiedAt) {
        const wait = resendWait(db, user.id);
        if (wait > 0) {
          const seconds = Math.ceil(wait / 1000);
          throw tooMany(`Please wait ${seconds} seconds before asking for a new code.`, seconds);
        }
        await sendCode(user);
      }
      // Unknown and already verified addresses get the same answer, so it reveals no account.
      return c.json({ message: 'A new OTP has been sent to your email' });
    })

    .get('/', auth, (c) => c.json(toPrivateUser(c.get('user'))))

    .post(
      '/profile-picture',
      auth,
      bodyLimit({
        maxSize: MAX_AVATAR_BYTES + 64 * 1024,
        onError: () => {
          throw new ApiError(413, 'too_large', 'The picture is too large. The limit is 5 MB.');
        },
      }),
      async (c) => {
        const form = await c.req.parseBody().catch(() => {
          throw badRequest('bad_form', 'Please send the picture as multipart form data.');
        });
        const file = form.profilePicture;
        if (!(file instanceof File) || file.size === 0) {
          throw badRequest('missing_file', 'Please select an image file to upload.', {
            fields: { profilePicture: 'Please select an image file to upload.' },
          });
        }
        if (file.size > MAX_AVATAR_BYTES)
          throw new ApiError(413, 'too_large', 'The picture is too large. The limit is 5 MB.');
        const avatar = await toAvatar(config, tempDir(config.dataDir), new Uint8Array(await file.arrayBuffer()));
        const caller = c.get('user');
        await writeFileAtomic(avatarFile(config.dataDir, caller.id), avatar);
        const updated = db
          .update(users)
          .set({ avatarVersion: sql`${users.avatarVersion} + 1` })
          .where(eq(users.id, caller.id))
          .returning()
          .get();
        return c.json(toPrivateUser(updated));
      },
    )

    .get('/:id/avatar', auth, validate('param', idParam), async (c) => {
      const { id } = c.req.valid('param');
      const owner = db.select({ avatarVersion: users.avatarVersion }).from(users).where(eq(users.id, id)).get();
      const file = Bun.file(avatarFile(config.dataDir, id));
      if (!owner || owner.avatarVersion === 0 || !(await file.exists())) {
        throw notFound('avatar_not_found', 'This picture does not exist.');
      }
      return new Response(file, {
        headers: {
          'Content-Type': 'image/webp',
          'Cache-Control': 'private, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
        },
      });
    })

    .patch('/:id/password', auth, validate('param', idParam), validate('json', passwordBody), async (c) => {
      const caller = c.get('user');
      ensureSelf(caller, c.req.valid('param').id);
      const body = c.req.valid('json');
      if (!(await verifyPassword(body.currentPassword, caller.passwordHash))) {
        throw badRequest('wrong_password', 'Your current password is not correct.', {
          fields: { currentPassword: 'Your current password is not correct.' },
        });
      }
      const updated = db
        .update(users)
        .set({ passwordHash: await hashPassword(body.newPassword), tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, caller.id))
        .returning()
        .get();
      // Older tokens stop working; this session continues with the new one.
      return c.json({ message: 'Password updated successfully', token: await tokenFor(updated) });
    })

    .patch('/:id', auth, validate('param', idParam), validate('json', profileBody), (c) => {
      const caller = c.get('user');
      ensureSelf(caller, c.req.valid('param').id);
      const updated = db
        .update(users)
        .set({ username: c.req.valid('json').username })
        .where(eq(users.id, caller.id))
        .returning()
        .get();
      return c.json(toPrivateUser(updated));
    });
}
