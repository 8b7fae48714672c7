import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { checkCode, issueCode } from '../auth/email-codes';
import { type AccountLimits, countCodeMail, countOrRefuse, refuseWhileLimited, waitValues } from '../auth/limits';
import { requireUser } from '../auth/middleware';
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../auth/password';
import {
  clearTokenCookie,
  endSession,
  endSessions,
  hashKey,
  isKnownDevice,
  newKey,
  rememberDevice,
  startSession,
} from '../auth/sessions';
import {
  accountFromSignup,
  checkSignupCode,
  createSignup,
  deleteSignup,
  pendingSignups,
  renewSignupCode,
  signupPasswordHash,
} from '../auth/signups';
import { accountDisabled, newAccountStanding } from '../auth/standing';
import {
  emailBody,
  loggedOutJson,
  loginBody,
  messageJson,
  privateUserJson,
  registerBody,
  registeredJson,
  resetBody,
  signInJson,
  toPrivateUser,
  verifyBody,
} from '../contract/users';
import { findUserByEmail, recordLogin, updateUser } from '../db/queries/users';
import type { User } from '../db/schema';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, forbidden, tooMany, unauthorized } from '../errors';
import { clientAddress } from '../http/client-address';
import { answers } from '../http/openapi';
import { validate } from '../http/validation';
import { localeOfAccount, localeOfRequest, type MessageKey } from '../i18n/translate';
import type { Mail } from '../mail/mailer';
import { accountExistsMail, passwordResetMail, verificationCodeMail } from '../mail/templates';
import { endSessionUrlOf } from './school-sign-in';

const SIGNUP_COOKIE = 'signup';
const passwordSigninOff = () => new ApiError(403, 'password_signin_off', 'errors.passwordSigninOff');
const DEVICE_COOKIE = 'device';
const INVALID_CODE: MessageKey = 'errors.invalidCode';
const CHOOSE_PASSWORD: MessageKey = 'errors.choosePassword';

/** Sign-up, email codes, login and logout, password recovery, and the current user (docs/accounts.md). */
export function accountsRoutes(deps: AppDeps & { limits: AccountLimits }) {
  const { db, config, mailer, limits } = deps;
  const client = (c: Context) => clientAddress(c, config.trustProxy);
  /** An account's mails are in its own language; a mail to an address with no account yet, in the request's. */
  const localeOf = (account: Pick<User, 'locale'>) => localeOfAccount(account, config);

  async function send(mail: Mail) {
    try {
      await mailer.send(mail);
    } catch (error) {
      // The subject carries the code: never logged.
      deps.log.error({ event: 'mail_failed', to: mail.to, error: (error as Error).message }, 'could not send a mail');
      throw new ApiError(503, 'mail_failed', 'errors.verificationMailFailed');
    }
  }

  /** The browser's key for its sign-up: a new one is made and set as an HttpOnly cookie. */
  function newSignupKey(c: Context) {
    const key = newKey();
    setCookie(c, SIGNUP_COOKIE, key, { path: '/api/users', httpOnly: true, sameSite: 'Lax', maxAge: 24 * 60 * 60 });
    return key;
  }

  async function signIn(c: Context, user: User) {
    if (user.disabledAt) throw accountDisabled();
    await recordLogin(db, user.id);
    const { token } = await startSession(c, db, config.jwtSecret, user.id);
    await rememberDevice(c, db, user.id, getCookie(c, DEVICE_COOKIE));
    return token;
  }

  const requiresVerification = (email: string) =>
    new ApiError(403, 'email_not_verified', 'errors.emailNotVerified', { requiresVerification: true, email });
  /** A right code away from its sign-up's browser: the password typed there is not trusted; the code stays valid. */
  const choosePassword = (email: string) =>
    new ApiError(409, 'choose_password', CHOOSE_PASSWORD, { requiresPassword: true, email });
  const teachersClosed = () => forbidden('errors.teachersClosed');

  /**
   * PASSWORD_SIGNIN=false: school sign-in only. The password routes refuse before reading anything, and change
   * nothing; login still lets the ADMIN_EMAIL account in (its break-glass password: `classroom set-admin-password`).
   */
  const passwordRoute = createMiddleware<AppEnv>(async (_c, next) => {
    if (!config.passwordSignin) throw passwordSigninOff();
    await next();
  });

  return new Hono<AppEnv>()
    .post('/register', answers({ 201: registeredJson }), passwordRoute, validate('json', registerBody), async (c) => {
      const body = c.req.valid('json');
      await countOrRefuse(limits.perClient.signups, client(c), 'signups');
      if (body.role === 'teacher' && config.teacherSignup === 'closed') throw teachersClosed();
      // The same work and the same answer whether or not the address has an account.
      const passwordHash = await hashPassword(body.password);
      await countCodeMail(limits, 'signup', body.email);
      const existing = await findUserByEmail(db, body.email);
      if (existing) {
        await send(accountExistsMail(localeOf(existing), existing.email, existing.username)).catch(() => {});
      } else {
        const others = (await pendingSignups(db, body.email)).length > 0;
        const { signup, code } = await createSignup(
          db,
          { email: body.email, username: body.username, role: body.role, passwordHash },
          newSignupKey(c),
        );
        try {
          await send(verificationCodeMail(localeOfRequest(c), body.email, body.username, code, others));
        } catch (error) {
          // A sign-up whose code could not be sent is removed, so signing up again starts clean.
          await deleteSignup(db, signup.id);
          throw error;
        }
      }
      return c.json(
        {
          requiresVerification: true,
          email: body.email,
          message: 'Registration successful! Please verify your email with the OTP sent.',
        },
        201,
      );
    })

    .post('/login', answers({ 200: signInJson }), validate('json', loginBody), async (c) => {
      const body = c.req.valid('json');
      if (!config.passwordSignin && body.email !== config.adminEmail) throw passwordSigninOff();
      const address = client(c);
      await refuseWhileLimited(limits.perClient.failedLogins, address, 'failedLogins');
      const user = await findUserByEmail(db, body.email);
      const deviceKey = getCookie(c, DEVICE_COOKIE);
      const known = user ? await isKnownDevice(db, user.id, deviceKey) : false;
      // A browser that signed in to this account before has its own count, so a sprayer cannot lock it out.
      const [lock, lockKey] = known
        ? [limits.failedLoginsPerDevice, `${body.email}|${hashKey(deviceKey ?? '')}`]
        : [limits.failedLoginsPerAccount, body.email];
      const lockedFor = await lock.waitFor(lockKey);
      if (lockedFor > 0) {
        c.get('log').warn({ event: 'login_locked', email: body.email, client: address }, 'login refused: locked');
        throw tooMany('errors.tooManyFailedAttempts', lockedFor, waitValues(lockedFor));
      }
      const signup = user ? undefined : (await pendingSignups(db, body.email)).at(-1);
      const hash = user?.passwordHash ?? signup?.passwordHash;
      const ok = hash ? await verifyPassword(body.password, hash) : await verifyAgainstDummy(body.password);
      if (!ok || (!user && !signup)) {
        await lock.hit(lockKey);
        await limits.perClient.failedLogins.hit(address);
        c.get('log').warn({ event: 'login_failed', email: body.email, client: address }, 'failed login');
        // The same answer for an unknown email and a wrong password, so nobody can probe for accounts.
        throw unauthorized('errors.invalidLogin');
      }
      await lock.reset(lockKey);
      if (!user && signup) {
        // Whoever knows this sign-up's password is its owner: a fresh code, bound to this browser.
        if ((await limits.codeMailMinute.waitFor(`signup:${body.email}`)) === 0) {
          await countCodeMail(limits, 'signup', body.email);
          const code = await renewSignupCode(db, signup.id, newSignupKey(c));
          await send(verificationCodeMail(localeOfRequest(c), signup.email, signup.username, code));
        }
        throw requiresVerification(signup.email);
      }
      const account = user as User;
      return c.json({ token: await signIn(c, account), user: toPrivateUser(account), message: 'Login successful!' });
    })

    .post('/verify-otp', answers({ 200: signInJson }), passwordRoute, validate('json', verifyBody), async (c) => {
      const body = c.req.valid('json');
      await countOrRefuse(limits.perClient.codeChecks, client(c), 'codeChecks');
      await refuseWhileLimited(limits.wrongCodesPerAddress, body.email, 'wrongCodes');
      const result = await checkSignupCode(db, body.email, body.otp, getCookie(c, SIGNUP_COOKIE));
      // Every failed guess counts towards the address's hourly cap, whichever code it was tried against.
      if (result.kind !== 'ok' && result.kind !== 'other_browser') await limits.wrongCodesPerAddress.hit(body.email);
      if (result.kind === 'none') throw badRequest('invalid_code', INVALID_CODE);
      if (result.kind === 'expired') throw badRequest('code_expired', 'errors.codeExpired');
      if (result.kind === 'used_up') throw badRequest('code_used_up', 'errors.codeUsedUp');
      if (result.kind === 'other_browser') {
        throw badRequest('code_of_other_signup', 'errors.codeOfOtherSignup');
      }
      if (result.kind === 'wrong') {
        throw badRequest('wrong_code', 'errors.wrongCode', {}, { count: result.left });
      }
      // Away from its browser, the name and role were typed before the address was proven, by whoever: asked again.
      if (!result.fromItsBrowser && (body.username === undefined || body.role === undefined))
        throw choosePassword(result.signup.email);
      if (body.role === 'teacher' && config.teacherSignup === 'closed') throw teachersClosed();
      const signup = {
        ...result.signup,
        username: body.username ?? result.signup.username,
        role: body.role ?? result.signup.role,
      };
      const chosenHash = body.password === undefined ? undefined : await hashPassword(body.password);
      const passwordHash = signupPasswordHash(result, chosenHash);
      if (passwordHash === undefined) throw choosePassword(signup.email);
      const user = await accountFromSignup(db, signup, passwordHash, (isFirstAccount) =>
        newAccountStanding(config, signup.email, signup.role, isFirstAccount),
      );
      if (!user) throw badRequest('invalid_code', INVALID_CODE);
      if (user.isAdmin)
        c.get('log').info(
          { event: 'admin_created', email: user.email },
          `${user.email} is the administrator of this server`,
        );
      if (user.teacherStatus === 'pending')
        c.get('log').info({ event: 'teacher_waits', userId: user.id }, 'a teacher waits for approval');
      // The administrators are told by the worker (a notification by their e-mail choice; printed when mail is the log).
      if (user.teacherStatus === 'pending') deps.jobs.wake();
      deleteCookie(c, SIGNUP_COOKIE, { path: '/api/users' });
      return c.json({
        token: await signIn(c, user),
        user: toPrivateUser(user),
        message: 'Email verified successfully!',
      });
    })

    .post('/resend-otp', answers({ 200: messageJson }), passwordRoute, validate('json', emailBody), async (c) => {
      const { email } = c.req.valid('json');
      await countCodeMail(limits, 'signup', email);
      const waiting = await pendingSignups(db, email);
      const key = getCookie(c, SIGNUP_COOKIE);
      const signup = waiting.find((row) => key && row.clientKeyHash === hashKey(key)) ?? waiting.at(-1);
      if (signup) {
        const code = await renewSignupCode(db, signup.id);
        await send(verificationCodeMail(localeOfRequest(c), signup.email, signup.username, code, waiting.length > 1));
      }
      // Unknown, verified and waiting addresses get the same answer, so it reveals no account.
      return c.json({ message: 'A new OTP has been sent to your email' });
    })

    .post('/forgot-password', answers({ 200: messageJson }), passwordRoute, validate('json', emailBody), async (c) => {
      const { email } = c.req.valid('json');
      await countOrRefuse(limits.perClient.recovery, client(c), 'passwordResets');
      await countCodeMail(limits, 'reset', email);
      const user = await findUserByEmail(db, email);
      if (user) {
        const code = await issueCode(db, user.id);
        // Not awaited: the answer must not take longer when the address has an account.
        send(passwordResetMail(localeOf(user), user.email, user.username, code)).then(
          () => c.get('log').info({ event: 'reset_code_sent', userId: user.id }, 'password reset code sent'),
          () => {},
        );
      }
      return c.json({ message: 'If an account uses this address, we sent it a code to reset the password.' });
    })

    .post('/reset-password', answers({ 200: signInJson }), passwordRoute, validate('json', resetBody), async (c) => {
      const body = c.req.valid('json');
      await countOrRefuse(limits.perClient.codeChecks, client(c), 'codeChecks');
      await refuseWhileLimited(limits.wrongCodesPerAddress, body.email, 'wrongCodes');
      const user = await findUserByEmail(db, body.email);
      const result = user ? await checkCode(db, user.id, body.otp) : 'missing';
      if (!user || result !== 'ok') {
        await limits.wrongCodesPerAddress.hit(body.email);
        // One answer for every failure, so it reveals neither the account nor how many tries are left.
        throw badRequest('invalid_code', 'errors.resetCodeInvalid');
      }
      const updated = await updateUser(db, user.id, { passwordHash: await hashPassword(body.newPassword) });
      await endSessions(db, user.id);
      c.get('log').info({ event: 'password_reset', userId: user.id }, 'password reset; every session ended');
      return c.json({ token: await signIn(c, updated), user: toPrivateUser(updated), message: 'Password reset.' });
    })

    .get('/', answers({ 200: privateUserJson }), requireUser(deps), (c) => c.json(toPrivateUser(c.get('user'))))

    .post('/logout', answers({ 200: loggedOutJson }), requireUser(deps), async (c) => {
      await endSession(db, c.get('sessionId'));
      clearTokenCookie(c);
      // OIDC_END_SESSION: the web may go on to sign out at the school's provider too.
      const endSessionUrl = await endSessionUrlOf(config, deps.log);
      return c.json({ message: 'Logged out', ...(endSessionUrl ? { endSessionUrl } : {}) });
    })

    .post('/logout-all', answers({ 200: messageJson }), requireUser(deps), async (c) => {
      await endSessions(db, c.get('user').id);
      clearTokenCookie(c);
      return c.json({ message: 'Logged out of all devices' });
    });
}
