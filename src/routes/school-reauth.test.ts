import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { signReauth } from '../auth/reauth';
import { sessions, userIdentities, users } from '../db/schema';
import { apiClient, signUpWith, TEST_PASSWORD } from '../test/harness';
import { startMailCapture } from '../test/mail-capture';
import { cookieHeader, type Setup, schoolSignIn, setUp } from '../test/school-sign-in-flow';

/**
 * An account made by school sign-in has no password. It deletes itself, or chooses a first password, with a fresh
 * school sign-in instead (`/api/auth/oidc/start?intent=confirm`): the callback checks the school account is linked
 * to the signed-in user and sets a 5-minute `reauth` cookie bound to that session (src/auth/reauth.ts). The real
 * server, the real provider (src/test/oidc-provider.ts), the test engine's database read from here.
 */

const JWT_SECRET = 'reauth-test-secret-of-at-least-32-characters';
const secret = new TextEncoder().encode(JWT_SECRET);

describe('confirming with the school account (intent=confirm)', () => {
  let s: Setup;
  let mail: Awaited<ReturnType<typeof startMailCapture>>;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    mail = await startMailCapture();
    s = await setUp({ SMTP_URL: mail.url, JWT_SECRET, OIDC_ALLOWED_DOMAINS: 'school.test' });
    api = apiClient(s.baseUrl);
  });
  afterAll(async () => {
    await s?.close();
    await mail?.close();
  });

  const db = () => s.database.handle.db;
  const sessionIdOf = (token: string) => decodeJwt(token).sid as string;

  /** A school-only pupil, signed in: their token, id and session. */
  async function pupil(login: string) {
    const flow = await schoolSignIn(s, login);
    const token = flow.token as string;
    const me = await api('GET', '/api/users', { as: token });
    expect(me.status).toBe(200);
    return { token, id: me.json._id as string, sessionId: sessionIdOf(token) };
  }

  /** The confirm round trip from the signed-in session `token`, at the provider as `login`. */
  const confirm = (token: string, login: string, next = '/settings?confirmed=delete') =>
    schoolSignIn(s, login, { token, query: `?intent=confirm&next=${encodeURIComponent(next)}` });

  /** A request as the session `token`, with the `reauth` proof cookie when there is one. */
  const withProof = (token: string, reauth: string | undefined) => ({
    headers: { cookie: cookieHeader({ token, reauth }) },
  });
  const deleteAs = (who: { token: string; id: string }, reauth?: string, body: unknown = {}) =>
    api('DELETE', `/api/users/${who.id}`, { body, ...withProof(who.token, reauth) });

  test('confirm asks the provider to sign in again, and needs a signed-in session', async () => {
    const ann = await pupil('confirm-ann');
    const start = await fetch(`${s.baseUrl}/api/auth/oidc/start?intent=confirm&next=/settings`, {
      redirect: 'manual',
      headers: { cookie: cookieHeader({ token: ann.token }) },
    });
    expect(start.status).toBe(302);
    const url = new URL(start.headers.get('location') as string);
    expect(url.origin).toBe(s.provider.issuer);
    expect(url.searchParams.get('prompt')).toBe('login');
    expect(url.searchParams.get('max_age')).toBe('0');

    // "Try again" after domain_not_allowed lets the person choose another account.
    const switching = await fetch(`${s.baseUrl}/api/auth/oidc/start?switch=1`, { redirect: 'manual' });
    const switchUrl = new URL(switching.headers.get('location') as string);
    expect(switchUrl.searchParams.get('prompt')).toBe('select_account');
    expect(switchUrl.searchParams.has('max_age')).toBe(false);
    const plain = new URL(
      (await fetch(`${s.baseUrl}/api/auth/oidc/start`, { redirect: 'manual' })).headers.get('location') as string,
    );
    expect(plain.searchParams.has('prompt')).toBe(false);

    const before = s.database.snapshot();
    const anonymous = await fetch(`${s.baseUrl}/api/auth/oidc/start?intent=confirm`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('unauthorized');
    const badNext = await fetch(`${s.baseUrl}/api/auth/oidc/start?intent=confirm&next=//evil.test`, {
      redirect: 'manual',
      headers: { cookie: cookieHeader({ token: ann.token }) },
    });
    expect(badNext.status).toBe(400);
    expect(s.database.snapshot()).toEqual(before);
  });

  test('a school-only account without a proof is refused with reauth_required, and nothing is deleted', async () => {
    const ben = await pupil('confirm-ben');
    const before = s.database.snapshot();
    for (const body of [{}, { password: 'any password at all' }, { password: '' }]) {
      const refused = await deleteAs(ben, undefined, body);
      expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 403, code: 'reauth_required' });
      expect(refused.json.error).toContain('school account');
    }
    // A session token is not a proof.
    const sessionAsProof = await deleteAs(ben, ben.token);
    expect(sessionAsProof.json.code).toBe('reauth_required');
    expect(s.database.snapshot()).toEqual(before);
  });

  test('a proof from the same school account deletes the account: rows and sessions gone', async () => {
    const cat = await pupil('confirm-cat');
    const secondDevice = await pupil('confirm-cat');
    const confirmed = await confirm(cat.token, 'confirm-cat');
    expect(confirmed.status).toBe(302);
    expect(confirmed.location).toBe('/settings?confirmed=delete');
    expect(confirmed.token).toBeUndefined();
    const proof = confirmed.cookies.reauth;
    expect(proof).toBeString();
    expect(proof).not.toContain(cat.token);

    const deleted = await deleteAs(cat, proof);
    expect(deleted.status).toBe(200);
    expect(deleted.json).toEqual({ message: 'Account deleted' });
    expect(await db().$count(users, eq(users.id, cat.id))).toBe(0);
    expect(await db().$count(sessions, eq(sessions.userId, cat.id))).toBe(0);
    expect(await db().$count(userIdentities, eq(userIdentities.userId, cat.id))).toBe(0);
    expect((await api('GET', '/api/users', { as: cat.token })).status).toBe(401);
    expect((await api('GET', '/api/users', { as: secondDevice.token })).status).toBe(401);

    // The next school sign-in with that school account makes a new, empty account.
    const again = await pupil('confirm-cat');
    expect(again.id).not.toBe(cat.id);
  });

  test('a school account that is not this account’s is confirm_mismatch, and nothing is deleted', async () => {
    const dan = await pupil('confirm-dan');
    await pupil('confirm-eve'); // another pupil's school account, linked to her own account
    const before = s.database.snapshot();
    for (const other of ['confirm-eve', 'confirm-never-seen']) {
      const flow = await confirm(dan.token, other);
      expect(flow.location).toBe('/school-sign-in?problem=confirm_mismatch');
      expect(flow.cookies.reauth).toBeUndefined();
      expect((await deleteAs(dan, flow.cookies.reauth)).json.code).toBe('reauth_required');
    }
    expect(s.database.snapshot()).toEqual(before);
  });

  test('a confirmation whose session ended on the way is expired and gives no proof', async () => {
    const jo = await pupil('confirm-jo');
    const flow = await schoolSignIn(s, 'confirm-jo', {
      token: jo.token,
      query: '?intent=confirm',
      tamper: async () => {
        expect((await api('POST', '/api/users/logout', { as: jo.token })).status).toBe(200);
      },
    });
    expect(flow.location).toBe('/school-sign-in?problem=expired');
    expect(flow.cookies.reauth).toBeUndefined();
  });

  test('a proof older than 5 minutes, or for another session, does not work', async () => {
    const fay = await pupil('confirm-fay');
    const otherSession = await pupil('confirm-fay');
    const gus = await pupil('confirm-gus');
    const before = s.database.snapshot();
    const claims = { userId: fay.id, sessionId: fay.sessionId };
    const old = await signReauth(secret, claims, Date.now() - 5 * 60_000 - 2_000);
    expect((await deleteAs(fay, old)).json.code).toBe('reauth_required');
    // The proof the callback gave to the other session, and one signed with another secret.
    const theirs = (await confirm(otherSession.token, 'confirm-fay')).cookies.reauth;
    expect(theirs).toBeString();
    expect((await deleteAs(fay, theirs)).json.code).toBe('reauth_required');
    const forged = await signReauth(new TextEncoder().encode('x'.repeat(40)), claims);
    expect((await deleteAs(fay, forged)).json.code).toBe('reauth_required');
    // Someone else's proof opens nobody else's account either.
    expect((await deleteAs(gus, theirs)).json.code).toBe('reauth_required');
    expect(s.database.snapshot()).toMatchObject({ users: before.users });
    expect(await db().$count(users, eq(users.id, fay.id))).toBe(1);

    // A proof made 4 minutes ago is still good.
    const recent = await signReauth(secret, claims, Date.now() - 4 * 60_000);
    expect((await deleteAs(fay, recent)).status).toBe(200);
    expect(await db().$count(users, eq(users.id, fay.id))).toBe(0);
  });

  test('a school-only account chooses a password with a proof, and then logs in with it', async () => {
    const hal = await pupil('confirm-hal');
    const email = 'confirm-hal@school.test';
    const password = 'a first password for hal';
    const before = s.database.snapshot();
    const refused = await api('PATCH', `/api/users/${hal.id}/password`, {
      body: { newPassword: password },
      ...withProof(hal.token, undefined),
    });
    expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 403, code: 'reauth_required' });
    expect(s.database.snapshot()).toEqual(before);

    const proof = (await confirm(hal.token, 'confirm-hal', '/settings?confirmed=password')).cookies.reauth;
    const chosen = await api('PATCH', `/api/users/${hal.id}/password`, {
      body: { newPassword: password },
      ...withProof(hal.token, proof),
    });
    expect(chosen.status).toBe(200);
    expect(chosen.json.message).toBe('Password updated successfully');
    expect(chosen.headers.getSetCookie().some((line) => line.startsWith('reauth=;'))).toBe(true);
    expect((await api('GET', '/api/users/sign-in-methods', { as: chosen.json.token })).json.password).toBe(true);
    const login = await api('POST', '/api/users/login', { body: { email, password } });
    expect(login.status).toBe(200);
    expect(login.json.user._id).toBe(hal.id);

    // Now a password account: deleting needs the password, even with a fresh proof.
    const proofAgain = (await confirm(chosen.json.token, 'confirm-hal')).cookies.reauth;
    const noPassword = await deleteAs({ token: chosen.json.token, id: hal.id }, proofAgain);
    expect({ status: noPassword.status, code: noPassword.json.code }).toEqual({ status: 400, code: 'invalid_input' });
    expect(noPassword.json.fields.password).toBe('Password is required.');
    expect(await db().$count(users, eq(users.id, hal.id))).toBe(1);
    const withPassword = await deleteAs({ token: chosen.json.token, id: hal.id }, undefined, { password });
    expect(withPassword.status).toBe(200);
  });

  test('a password account still needs its password (a linked school account and a proof change nothing)', async () => {
    const owner = await signUpWith(api, mail, 'student', 'Reauth Owner');
    s.provider.setAccount('owner-school', { email: 'owner@school.test', email_verified: true, name: 'Owner' });
    const linked = await schoolSignIn(s, 'owner-school', { query: '?intent=link', token: owner.token });
    expect(linked.location).toBe('/settings?linked=school');
    const proof = (await confirm(owner.token, 'owner-school')).cookies.reauth;
    expect(proof).toBeString();
    const who = { token: owner.token, id: owner.user._id as string };
    const before = s.database.snapshot();
    const noPassword = await deleteAs(who, proof);
    expect(noPassword.status).toBe(400);
    expect(noPassword.json.fields.password).toBe('Password is required.');
    const wrong = await deleteAs(who, proof, { password: 'not the password' });
    expect(wrong.json.code).toBe('wrong_password');
    const change = await api('PATCH', `/api/users/${who.id}/password`, {
      body: { newPassword: 'another long password' },
      ...withProof(owner.token, proof),
    });
    expect(change.status).toBe(400);
    expect(change.json.fields.currentPassword).toBe('Current password is required.');
    expect(s.database.snapshot()).toEqual(before);
    expect((await deleteAs(who, undefined, { password: TEST_PASSWORD })).status).toBe(200);
  });
});

describe('school sign-in only (PASSWORD_SIGNIN=false)', () => {
  let s: Setup;
  beforeAll(async () => {
    // ADMIN_EMAIL is someone else: the first account here is not the administrator, who could not delete itself.
    s = await setUp({ PASSWORD_SIGNIN: 'false', JWT_SECRET, ADMIN_EMAIL: 'admin@school.test' });
  });
  afterAll(async () => {
    await s?.close();
  });

  test('a school-only account cannot choose a password, even confirmed, but can delete itself', async () => {
    const api = apiClient(s.baseUrl);
    const flow = await schoolSignIn(s, 'only-ivy');
    const token = flow.token as string;
    const id = (await api('GET', '/api/users', { as: token })).json._id as string;
    const proof = (await schoolSignIn(s, 'only-ivy', { token, query: '?intent=confirm' })).cookies.reauth;
    expect(proof).toBeString();
    const before = s.database.snapshot();
    const refused = await api('PATCH', `/api/users/${id}/password`, {
      body: { newPassword: 'a password nobody can use' },
      headers: { cookie: cookieHeader({ token, reauth: proof }) },
    });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toContain('school sign-in only');
    expect(s.database.snapshot()).toEqual(before);
    const deleted = await api('DELETE', `/api/users/${id}`, {
      body: {},
      headers: { cookie: cookieHeader({ token, reauth: proof }) },
    });
    expect(deleted.status).toBe(200);
    expect(await s.database.handle.db.$count(users, eq(users.id, id))).toBe(0);
  });
});
