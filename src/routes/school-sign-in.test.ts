import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { root } from '../../e2e/server';
import { createOidcClient, OidcFailure } from '../auth/oidc';
import { loadConfig } from '../config';
import { oidcAttempts, userIdentities, users } from '../db/schema';
import { createLogger } from '../lib/log';
import { apiClient, signUpWith, TEST_PASSWORD } from '../test/harness';
import { startMailCapture } from '../test/mail-capture';
import { type OidcProvider, startOidcProvider } from '../test/oidc-provider';
import { type Setup, schoolSignIn, setUp } from '../test/school-sign-in-flow';

/**
 * School sign-in against a real OpenID provider (src/test/oidc-provider.ts, HTTPS with its own CA) and the real
 * server as a child process that trusts that CA through NODE_EXTRA_CA_CERTS (Bun reads it only at process start).
 * The test plays the browser with fetch: it follows the redirects by hand and fills the provider's login form.
 * The database is the test engine's (SQLite file, or PostgreSQL with TEST_DATABASE_URL), read from here.
 */

describe('school sign-in with a real OpenID provider', () => {
  let s: Setup;
  let mail: Awaited<ReturnType<typeof startMailCapture>>;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    mail = await startMailCapture();
    s = await setUp({
      SMTP_URL: mail.url,
      OIDC_ALLOWED_DOMAINS: 'school.test,example.test',
      OIDC_TEACHER_CLAIM: 'groups',
      OIDC_TEACHER_VALUES: 'staff,teachers',
      OIDC_BUTTON_LABEL: 'Sign in with Test School',
      OIDC_END_SESSION: 'true',
    });
    api = apiClient(s.baseUrl);
  });
  afterAll(async () => {
    await s?.close();
    await mail?.close();
  });

  const db = () => s.database.handle.db;
  const userByEmail = async (email: string) => (await db().select().from(users).where(eq(users.email, email)))[0];

  test('the providers answer says which ways in the sign-in page shows', async () => {
    const answer = await api('GET', '/api/auth/providers');
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ password: true, oidc: { label: 'Sign in with Test School' } });
  });

  test('a first school sign-in makes the account and a session; a second reaches the same account', async () => {
    s.provider.setAccount('pupil-ann', {
      email: 'Ann.Pupil@school.test',
      email_verified: true,
      name: 'Ann Pupil',
      groups: ['year-7'],
    });
    const first = await schoolSignIn(s, 'pupil-ann');
    expect(first.status).toBe(302);
    expect(first.location).toBe('/classroom');
    expect(first.token).toBeString();
    const me = await api('GET', '/api/users', { as: first.token });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ email: 'ann.pupil@school.test', username: 'Ann Pupil', role: 'student' });
    const identities = await db().select().from(userIdentities).where(eq(userIdentities.userId, me.json._id));
    expect(identities).toHaveLength(1);
    expect(identities[0]).toMatchObject({ issuer: s.provider.issuer, subject: 'pupil-ann' });
    // The account has no password: no password opens it.
    expect((await userByEmail('ann.pupil@school.test')).passwordHash).toBe('');
    const login = await api('POST', '/api/users/login', { body: { email: 'ann.pupil@school.test', password: '' } });
    expect(login.status).toBe(400);
    // The provider's code never reaches the log.
    const code = new URL(first.callback as string).searchParams.get('code') as string;
    expect(s.server.logs()).not.toContain(code);

    const usersBefore = await db().$count(users);
    const second = await schoolSignIn(s, 'pupil-ann');
    expect(second.location).toBe('/classroom');
    const again = await api('GET', '/api/users', { as: second.token });
    expect(again.json._id).toBe(me.json._id);
    expect(await db().$count(users)).toBe(usersBefore);
    expect(second.token).not.toBe(first.token);
    // Signing out ends that session only, as for a password sign-in; OIDC_END_SESSION adds the provider's page.
    const logout = await api('POST', '/api/users/logout', { as: second.token });
    expect(logout.status).toBe(200);
    expect(logout.json.message).toBe('Logged out');
    const endSession = new URL(logout.json.endSessionUrl);
    expect(endSession.origin).toBe(s.provider.issuer);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${s.baseUrl}/`);
    expect((await s.provider.fetch(endSession)).status).toBe(200);
    expect((await api('GET', '/api/users', { as: second.token })).status).toBe(401);
    expect((await api('GET', '/api/users', { as: first.token })).status).toBe(200);
  });

  test('two first sign-ins of one person at once make one account', async () => {
    s.provider.setAccount('twin-tabs', { email: 'twin@school.test', email_verified: true, name: 'Twin Tabs' });
    const flows = await Promise.all([schoolSignIn(s, 'twin-tabs'), schoolSignIn(s, 'twin-tabs')]);
    expect(flows.map((flow) => flow.location)).toEqual(['/classroom', '/classroom']);
    const ids = await Promise.all(
      flows.map(async (flow) => (await api('GET', '/api/users', { as: flow.token })).json._id),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await db().$count(userIdentities, eq(userIdentities.userId, ids[0]))).toBe(1);
  });

  test('a teacher value in the groups claim makes an approved teacher', async () => {
    s.provider.setAccount('mr-bell', {
      email: 'bell@school.test',
      email_verified: true,
      name: 'Mr Bell',
      groups: ['staff'],
    });
    const flow = await schoolSignIn(s, 'mr-bell');
    const me = await api('GET', '/api/users', { as: flow.token });
    expect(me.json).toMatchObject({ email: 'bell@school.test', role: 'teacher' });
    expect((await userByEmail('bell@school.test')).teacherStatus).toBe('approved');
    const course = await api('POST', '/api/courses', { as: flow.token, body: { courseName: 'Physics 7B' } });
    expect(course.status).toBe(201);
  });

  test('a next path survives the round trip (an invite link)', async () => {
    const flow = await schoolSignIn(s, 'pupil-ann', { query: `?next=${encodeURIComponent('/join/ABC123?from=qr')}` });
    expect(flow.location).toBe('/join/ABC123?from=qr');
    expect(flow.token).toBeString();
  });

  const refusals: [string, Record<string, unknown>, string][] = [
    ['a domain that is not allowed', { email: 'kid@elsewhere.test', email_verified: true }, 'domain_not_allowed'],
    ['an unverified email', { email: 'kid@school.test', email_verified: false }, 'email_unverified'],
    ['no email at all', { email_verified: true }, 'email_unverified'],
  ];
  for (const [name, claims, problem] of refusals) {
    test(`${name} is refused with a page that says why, and nothing is made`, async () => {
      const login = `refused-${problem}-${Math.random().toString(36).slice(2, 6)}`;
      s.provider.setAccount(login, claims);
      const before = s.database.snapshot();
      const flow = await schoolSignIn(s, login);
      expect(flow).toMatchObject({ status: 302, location: `/school-sign-in?problem=${problem}`, token: undefined });
      expect(s.database.snapshot()).toEqual(before);
    });
  }

  test('an email of an existing password account is never merged: email_in_use, then the owner links it', async () => {
    const owner = await signUpWith(api, mail, 'student', 'Owner Olive');
    s.provider.setAccount('olive-school', { email: owner.email, email_verified: true, name: 'Olive at school' });
    const before = s.database.snapshot();
    const refused = await schoolSignIn(s, 'olive-school');
    expect(refused).toMatchObject({ location: '/school-sign-in?problem=email_in_use', token: undefined });
    expect(s.database.snapshot()).toEqual(before);

    // Linking needs a signed-in session.
    const anonymous = await schoolSignIn(s, 'olive-school', { query: '?intent=link&next=/settings' });
    expect(anonymous.status).toBe(401);
    expect(s.database.snapshot()).toEqual(before);

    const linked = await schoolSignIn(s, 'olive-school', {
      query: '?intent=link&next=/settings',
      token: owner.token,
    });
    expect(linked.location).toBe('/settings?linked=school');
    const methods = await api('GET', '/api/users/sign-in-methods', { as: owner.token });
    expect(methods.status).toBe(200);
    expect(methods.json).toMatchObject({ password: true, schoolLabel: 'Sign in with Test School' });
    expect(methods.json.school).toHaveLength(1);
    expect(methods.json.school[0]).toMatchObject({ email: owner.email });
    expect(methods.json.school[0].linkedAt).toBeNumber();

    // Now the school sign-in reaches the password account.
    const viaSchool = await schoolSignIn(s, 'olive-school');
    expect(viaSchool.location).toBe('/classroom');
    expect((await api('GET', '/api/users', { as: viaSchool.token })).json._id).toBe(owner.user._id);

    // That school account cannot be linked to someone else as well.
    const other = await signUpWith(api, mail, 'student', 'Other Otto');
    const stolen = await schoolSignIn(s, 'olive-school', { query: '?intent=link', token: other.token });
    expect(stolen.location).toBe('/school-sign-in?problem=already_linked');
    expect((await api('GET', '/api/users/sign-in-methods', { as: other.token })).json.school).toEqual([]);

    // With a password left, unlinking is allowed; the school account then makes no way in (email_in_use again).
    const id = methods.json.school[0].id;
    const otherRefused = await api('DELETE', `/api/users/sign-in-methods/school/${id}`, { as: other.token });
    expect(otherRefused.status).toBe(404);
    const unlinked = await api('DELETE', `/api/users/sign-in-methods/school/${id}`, { as: owner.token });
    expect(unlinked.status).toBe(204);
    expect((await api('GET', '/api/users/sign-in-methods', { as: owner.token })).json.school).toEqual([]);
    expect((await schoolSignIn(s, 'olive-school')).location).toBe('/school-sign-in?problem=email_in_use');
  });

  test('the last way to sign in cannot be unlinked, and the refusal changes nothing', async () => {
    const flow = await schoolSignIn(s, 'pupil-ann');
    const methods = await api('GET', '/api/users/sign-in-methods', { as: flow.token });
    expect(methods.json.password).toBe(false);
    expect(methods.json.school).toHaveLength(1);
    const before = s.database.snapshot();
    const refused = await api('DELETE', `/api/users/sign-in-methods/school/${methods.json.school[0].id}`, {
      as: flow.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('last_sign_in_method');
    expect(refused.json.error).toBeString();
    expect(s.database.snapshot()).toEqual(before);
    expect((await api('GET', '/api/users/sign-in-methods')).status).toBe(401);
  });

  test('a disabled account is refused at the callback', async () => {
    s.provider.setAccount('gone-gus', { email: 'gus@school.test', email_verified: true, name: 'Gus' });
    const first = await schoolSignIn(s, 'gone-gus');
    const gus = await userByEmail('gus@school.test');
    expect(first.token).toBeString();
    await db().update(users).set({ disabledAt: Date.now() }).where(eq(users.id, gus.id));
    const sessionsBefore = s.database.snapshot().sessions.length;
    const refused = await schoolSignIn(s, 'gone-gus');
    expect(refused).toMatchObject({ location: '/school-sign-in?problem=account_disabled', token: undefined });
    expect(s.database.snapshot().sessions.length).toBe(sessionsBefore);
  });

  test('a tampered state is refused, and the attempt is used up', async () => {
    s.provider.setAccount('tamper-tom', { email: 'tom@school.test', email_verified: true, name: 'Tom' });
    const before = s.database.snapshot();
    const flow = await schoolSignIn(s, 'tamper-tom', {
      tamper: (callback) => callback.searchParams.set('state', `${callback.searchParams.get('state')}x`),
    });
    expect(flow).toMatchObject({ location: '/school-sign-in?problem=state_mismatch', token: undefined });
    expect(s.database.snapshot()).toEqual(before);
    expect(await userByEmail('tom@school.test')).toBeUndefined();
  });

  test('a callback without its browser cookie, or after 10 minutes, is expired', async () => {
    s.provider.setAccount('late-lou', { email: 'lou@school.test', email_verified: true, name: 'Lou' });
    // Another browser (no attempt cookie) brings the callback: a sign-in someone else started.
    const start = await fetch(`${s.baseUrl}/api/auth/oidc/start`, { redirect: 'manual' });
    const callback = await s.provider.loginThrough(start.headers.get('location') as string, 'late-lou');
    const stranger = await fetch(callback, { redirect: 'manual' });
    expect(stranger.headers.get('location')).toBe('/school-sign-in?problem=expired');
    expect(stranger.headers.getSetCookie().some((line) => line.startsWith('token='))).toBe(false);

    const flow = await schoolSignIn(s, 'late-lou', {
      // The attempt started 11 minutes ago.
      tamper: async () => {
        await s.database.handle.db
          .update(oidcAttempts)
          .set({ createdAt: sql`${oidcAttempts.createdAt} - ${11 * 60_000}` });
      },
    });
    expect(flow).toMatchObject({ location: '/school-sign-in?problem=expired', token: undefined });
    expect(await userByEmail('lou@school.test')).toBeUndefined();
  });

  test('cancelling at the provider comes back as cancelled', async () => {
    const flow = await schoolSignIn(s, 'whoever', { cancel: true });
    expect(flow).toMatchObject({ location: '/school-sign-in?problem=cancelled', token: undefined });
  });

  test('next must be a path on this site: open redirects are refused and start nothing', async () => {
    for (const next of [
      '//evil.test/x',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      'classroom',
      '/\t/evil.test',
    ]) {
      const before = s.database.snapshot();
      const answer = await fetch(`${s.baseUrl}/api/auth/oidc/start?next=${encodeURIComponent(next)}`, {
        redirect: 'manual',
      });
      expect({ next, status: answer.status }).toEqual({ next, status: 400 });
      expect((await answer.json()).fields.next).toBeString();
      expect(s.database.snapshot()).toEqual(before);
    }
  });
});

describe('school sign-in only (PASSWORD_SIGNIN=false) with the provider down', () => {
  let s: Setup;
  const admin = 'head@school.test';

  beforeAll(async () => {
    s = await setUp({ PASSWORD_SIGNIN: 'false', ADMIN_EMAIL: admin }, { providerDown: true });
  });
  afterAll(async () => {
    await s?.close();
  });

  test('the app starts, says password sign-in is off, and a sign-in says the provider is unavailable', async () => {
    const api = apiClient(s.baseUrl);
    expect((await api('GET', '/api/health/live')).status).toBe(200);
    expect((await api('GET', '/api/auth/providers')).json).toEqual({
      password: false,
      oidc: { label: 'Sign in with your school account' },
    });
    const before = s.database.snapshot();
    const start = await fetch(`${s.baseUrl}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toBe('/school-sign-in?problem=provider_unavailable');
    expect(s.database.snapshot()).toEqual(before);
  });

  test('every password route refuses with password_signin_off and changes nothing', async () => {
    const api = apiClient(s.baseUrl);
    const email = 'pupil@school.test';
    const calls: [string, unknown][] = [
      ['/api/users/register', { username: 'Pupil', email, password: TEST_PASSWORD }],
      ['/api/users/login', { email, password: TEST_PASSWORD }],
      ['/api/users/verify-otp', { email, otp: '123456' }],
      ['/api/users/resend-otp', { email }],
      ['/api/users/forgot-password', { email }],
      ['/api/users/reset-password', { email, otp: '123456', newPassword: TEST_PASSWORD }],
    ];
    for (const [path, body] of calls) {
      const before = s.database.snapshot();
      const answer = await api('POST', path, { body });
      expect({ path, status: answer.status, code: answer.json?.code }).toEqual({
        path,
        status: 403,
        code: 'password_signin_off',
      });
      expect(answer.json.error).toContain('school');
      expect(s.database.snapshot()).toEqual(before);
    }
  });

  test('the break-glass command gives the ADMIN_EMAIL account a password that logs in, and only it', async () => {
    const api = apiClient(s.baseUrl);
    const run = async (input: string, env: Record<string, string> = {}) => {
      const child = Bun.spawn(['bun', join(root, 'src', 'main.ts'), 'set-admin-password'], {
        cwd: root,
        env: { ...process.env, DATA_DIR: s.server.dataDir, ...s.database.env, ADMIN_EMAIL: admin, ...env },
        stdin: new TextEncoder().encode(input),
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
      return { code: await child.exited, out, err };
    };
    const before = s.database.snapshot();
    const short = await run('short\n');
    expect(short.code).toBe(2);
    expect(short.err).toContain('characters');
    expect(s.database.snapshot()).toEqual(before);

    const password = 'break glass in case of fire';
    const made = await run(`${password}\n`);
    expect(made.code).toBe(0);
    expect(made.out).toContain(admin);
    expect(made.out + made.err).not.toContain(password);

    const login = await api('POST', '/api/users/login', { body: { email: admin, password } });
    expect(login.status).toBe(200);
    expect(login.json.user).toMatchObject({ email: admin });
    const me = await api('GET', '/api/users', { as: login.json.token });
    expect(me.json.isAdmin).toBe(true);
    const wrong = await api('POST', '/api/users/login', { body: { email: admin, password: 'not the password' } });
    expect(wrong.status).toBe(401);

    // Setting it again ends the sessions the old password opened.
    expect((await run('another long password\n')).code).toBe(0);
    expect((await api('GET', '/api/users', { as: login.json.token })).status).toBe(401);
  });
});

describe('the provider client (src/auth/oidc.ts) against the real provider and its keys', () => {
  let provider: OidcProvider;
  const redirectUri = 'http://127.0.0.1:9/api/auth/oidc/callback';

  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUris: [redirectUri] });
    provider.setAccount('kim', { email: 'kim@school.test', email_verified: true, name: 'Kim' });
  });
  afterAll(async () => {
    await provider?.stop();
    rmSync(join(tmpdir(), 'classroom-oidc-unit'), { recursive: true, force: true });
  });

  /** A sign-in whose token answer is replaced: its ID token re-signed by the provider's key with `change` applied. */
  async function signInWithIdToken(change?: (claims: Record<string, unknown>) => Record<string, unknown>) {
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'classroom-oidc-unit-')),
      PUBLIC_URL: 'http://127.0.0.1:9',
      ...provider.appEnv(),
    });
    const fetchThrough = (async (url: string | URL, init?: RequestInit) => {
      const response = await provider.fetch(url, init);
      if (!change || !String(url).endsWith('/token')) return response;
      const body = await response.json();
      body.id_token = await provider.signJwt(change(decodeJwt(body.id_token) as Record<string, unknown>));
      return Response.json(body, { status: response.status });
    }) as typeof fetch;
    const oidc = createOidcClient(
      config.oidc as NonNullable<typeof config.oidc>,
      redirectUri,
      'http://127.0.0.1:9/',
      createLogger({ level: 'silent', format: 'json' }),
      { fetch: fetchThrough },
    );
    const checks = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const back = await provider.loginThrough((await oidc.authorizationUrl(checks)).href, 'kim');
    rmSync(config.dataDir, { recursive: true, force: true });
    return oidc.finish(new URL(back), checks);
  }

  const problemOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (error) => (error instanceof OidcFailure ? error.problem : `unexpected ${error}`),
    );

  test('the token as the provider signed it is accepted (and re-signing alone changes nothing)', async () => {
    expect((await signInWithIdToken()).email).toBe('kim@school.test');
    expect((await signInWithIdToken((claims) => claims)).sub).toBe('kim');
  });

  /** A client of `issuer` with its own fetch and short waits. */
  function clientOf(issuer: string, fetchImpl: typeof fetch, timeoutSeconds = 10) {
    const config = loadConfig({
      DATA_DIR: join(tmpdir(), 'classroom-oidc-unit'),
      PUBLIC_URL: 'http://127.0.0.1:9',
      ...provider.appEnv(),
      OIDC_ISSUER: issuer,
    });
    return createOidcClient(
      config.oidc as NonNullable<typeof config.oidc>,
      redirectUri,
      'http://127.0.0.1:9/',
      createLogger({ level: 'silent', format: 'json' }),
      { fetch: fetchImpl, timeoutSeconds, retryDiscoveryMs: 0 },
    );
  }
  const checks = () => ({
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  });

  test('a provider that accepts the connection and never answers is unavailable after the timeout', async () => {
    const silent = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
    try {
      const oidc = clientOf(`https://127.0.0.1:${silent.port}`, provider.fetch as typeof fetch, 1);
      const started = Date.now();
      expect(await problemOf(oidc.authorizationUrl(checks()))).toBe('provider_unavailable');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.stop(true);
    }
  });

  test('a failed discovery is tried again by the next sign-in', async () => {
    let down = true;
    const flaky = (async (url: string | URL, init?: RequestInit) => {
      if (down) throw new TypeError('fetch failed');
      return provider.fetch(url, init);
    }) as typeof fetch;
    const oidc = clientOf(provider.issuer, flaky);
    expect(await problemOf(oidc.authorizationUrl(checks()))).toBe('provider_unavailable');
    down = false;
    const url = await oidc.authorizationUrl(checks());
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  });

  test('a wrong audience, nonce or issuer is refused as invalid_response', async () => {
    expect(await problemOf(signInWithIdToken((claims) => ({ ...claims, aud: 'another-app' })))).toBe(
      'invalid_response',
    );
    expect(await problemOf(signInWithIdToken((claims) => ({ ...claims, nonce: 'replayed-nonce' })))).toBe(
      'invalid_response',
    );
    expect(await problemOf(signInWithIdToken((claims) => ({ ...claims, iss: 'https://evil.test' })))).toBe(
      'invalid_response',
    );
    expect(
      await problemOf(signInWithIdToken((claims) => ({ ...claims, exp: Math.floor(Date.now() / 1000) - 3600 }))),
    ).toBe('invalid_response');
  });
});
