/**
 * School sign-in (issue 22) in Chromium, end to end: a real OpenID provider (oidc-provider over HTTPS with its own
 * CA, src/test/oidc-provider.ts) and the real server as a child process that trusts that CA (NODE_EXTRA_CA_CERTS).
 * The browser reaches the provider with `ignoreHTTPSErrors` (its test certificate); the app itself verifies TLS.
 */
import { Database } from 'bun:sqlite';
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiClient } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { freePort, type OidcProvider, startOidcProvider } from '../src/test/oidc-provider';
import { auditAccessibility, launchBrowser, seriousA11yFindings } from './browser';
import { createAccount, type RunningServer, screenshot, startServer } from './server';

const LABEL = 'Sign in with Test School';
let provider: OidcProvider;
let server: RunningServer;
/** The same school, signing in only with its school accounts (PASSWORD_SIGNIN=false). */
let schoolOnly: RunningServer;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
let browser: Browser;

beforeAll(async () => {
  const [port, schoolOnlyPort] = [await freePort(), await freePort()];
  const urls = [port, schoolOnlyPort].map((p) => `http://127.0.0.1:${p}`);
  provider = await startOidcProvider({
    redirectUris: urls.map((url) => `${url}/api/auth/oidc/callback`),
    postLogoutRedirectUris: urls.map((url) => `${url}/`),
  });
  mail = await startMailCapture();
  const common = {
    SMTP_URL: mail.url,
    TEACHER_SIGNUP: 'open',
    OIDC_BUTTON_LABEL: LABEL,
    // example.test: the password accounts the test helper makes (createAccount) are at the school too.
    OIDC_ALLOWED_DOMAINS: 'school.test,example.test',
    OIDC_TEACHER_CLAIM: 'groups',
    OIDC_TEACHER_VALUES: 'staff',
    ...provider.appEnv(),
  };
  server = await startServer({ env: { ...common, PORT: String(port), PUBLIC_URL: urls[0] } });
  schoolOnly = await startServer({
    env: {
      ...common,
      PORT: String(schoolOnlyPort),
      PUBLIC_URL: urls[1],
      PASSWORD_SIGNIN: 'false',
      OIDC_END_SESSION: 'true',
    },
  });
  browser = auditAccessibility(await launchBrowser());
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await schoolOnly?.stop();
  await mail?.close();
  await provider?.stop();
});

/** A fresh browser (no provider session), trusting the provider's test certificate. */
const newContext = (width = 1280) => browser.newContext({ viewport: { width, height: 800 }, ignoreHTTPSErrors: true });

/** Rows of the server's database (read-only), for "no account was made" and "nothing changed". */
function count(target: RunningServer, sql: string, ...params: string[]): number {
  const db = new Database(join(target.dataDir, 'classroom.sqlite'), { readonly: true });
  try {
    return (db.query(sql).get(...params) as { n: number }).n;
  } finally {
    db.close();
  }
}
const usersWithEmail = (target: RunningServer, email: string) =>
  count(target, 'SELECT count(*) AS n FROM users WHERE email = ?', email);
const identitiesOf = (target: RunningServer, subject: string) =>
  count(target, 'SELECT count(*) AS n FROM user_identities WHERE subject = ?', subject);

/**
 * Clicks the school button and signs in at the provider as `login` (its dev login form). With a live provider
 * session the provider sends the browser straight back, without its form.
 */
async function signInAtSchool(page: Page, login: string, button = page.getByRole('link', { name: LABEL })) {
  await button.click();
  await page.waitForURL((url) => url.origin === provider.issuer || !url.pathname.startsWith('/api/'));
  if (new URL(page.url()).origin === provider.issuer) {
    const form = page.locator('input[name="login"]');
    if (await form.isVisible().catch(() => false)) {
      await form.fill(login);
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
  }
  await page.waitForURL((url) => url.origin !== provider.issuer && !url.pathname.startsWith('/api/'), {
    timeout: 20_000,
  });
}

/** The user the browser's `token` cookie belongs to (GET /api/users with it), or the status when refused. */
async function currentUser(context: BrowserContext, target = server) {
  const token = (await context.cookies(target.baseUrl)).find((cookie) => cookie.name === 'token')?.value;
  if (!token) return { status: 401, user: null };
  const answer = await apiClient(target.baseUrl)('GET', '/api/users', { as: token });
  return { status: answer.status, user: answer.status === 200 ? answer.json : null, token };
}

async function expectNoSeriousFindings(page: Page, widths = [375, 1280]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    expect({ width, findings: await seriousA11yFindings(page) }).toEqual({ width, findings: [] });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
}

async function logOutInSettings(page: Page) {
  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await page.waitForURL('**/login');
}

test('the school button signs a pupil in; signing in again reaches the same account', async () => {
  provider.setAccount('pupil1', { email: 'pupil1@school.test', email_verified: true, name: 'Pupil One' });
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  // The school's button above the password form, an "or" between them.
  await page.getByRole('link', { name: LABEL }).waitFor();
  await page.getByText('or', { exact: true }).waitFor();
  await page.getByLabel('Email').waitFor();
  await expectNoSeriousFindings(page);
  await screenshot(page, 'login-with-school-button');

  await signInAtSchool(page, 'pupil1');
  expect(new URL(page.url()).pathname).toBe('/classroom');
  await page.getByText('No classes yet').waitFor();
  const first = await currentUser(context);
  expect(first.user).toMatchObject({ username: 'Pupil One', email: 'pupil1@school.test', role: 'student' });
  expect(identitiesOf(server, 'pupil1')).toBe(1);

  await logOutInSettings(page);
  expect((await currentUser(context)).status).toBe(401);
  await signInAtSchool(page, 'pupil1');
  const second = await currentUser(context);
  expect(second.user?._id).toBe(first.user._id);
  expect(usersWithEmail(server, 'pupil1@school.test')).toBe(1);

  // A school-only account: its one way in cannot be unlinked, in the page or through the API.
  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('tab', { name: 'Linked sign-in' }).click();
  const unlink = page.getByRole('button', { name: 'Unlink pupil1@school.test' });
  await unlink.waitFor();
  expect(await unlink.isDisabled()).toBe(true);
  await page.getByText('This school account is the only way into your account, so it cannot be unlinked.').waitFor();
  const call = apiClient(server.baseUrl);
  const methods = await call('GET', '/api/users/sign-in-methods', { as: second.token });
  expect(methods.json).toMatchObject({ password: false, school: [{ email: 'pupil1@school.test' }] });
  const refused = await call('DELETE', `/api/users/sign-in-methods/school/${methods.json.school[0].id}`, {
    as: second.token,
  });
  expect({ status: refused.status, code: refused.json.code }).toEqual({ status: 409, code: 'last_sign_in_method' });
  expect(identitiesOf(server, 'pupil1')).toBe(1);
  await expectNoSeriousFindings(page);
  // No password to change on such an account: the Security tab says so instead of asking for one.
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByText('Your account has no password: you sign in with your school account').waitFor();
  expect(await page.getByLabel('Current password').count()).toBe(0);
  await context.close();
});

test('the ways to sign in failing to load show a retry, never a bare form', async () => {
  const context = await newContext(375);
  const page = await context.newPage();
  let failing = true;
  await page.route(
    (url) => url.pathname === '/api/auth/providers',
    (route) => (failing ? route.fulfill({ status: 502, body: 'Bad Gateway' }) : route.continue()),
  );
  await page.goto(`${server.baseUrl}/login`);
  await page.getByText('Could not load the ways to sign in. Check your connection.').waitFor();
  expect(await page.getByLabel('Email').count()).toBe(0);
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('link', { name: LABEL }).waitFor();
  await page.getByLabel('Email').waitFor();
  await context.close();
});

test('a teacher group in the claims makes a teacher', async () => {
  provider.setAccount('teacher1', {
    email: 'teacher1@school.test',
    email_verified: true,
    name: 'Teacher One',
    groups: ['staff', 'physics'],
  });
  const context = await newContext();
  const page = await context.newPage();
  // The page asked for before signing in is where the school sign-in comes back to.
  await page.goto(`${server.baseUrl}/history`);
  await page.waitForURL('**/login');
  await signInAtSchool(page, 'teacher1');
  expect(new URL(page.url()).pathname).toBe('/history');
  expect((await currentUser(context)).user).toMatchObject({ username: 'Teacher One', role: 'teacher' });
  await page.goto(`${server.baseUrl}/classroom`);
  await page.getByRole('button', { name: 'Create a class' }).first().waitFor();
  await context.close();
});

test('an account from another domain is refused with a page that says why, and no account is made', async () => {
  provider.setAccount('outsider', { email: 'someone@elsewhere.test', email_verified: true, name: 'Out Sider' });
  const context = await newContext(375);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await signInAtSchool(page, 'outsider');
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/school-sign-in?problem=domain_not_allowed');
  await page.getByRole('heading', { name: 'This account is not from this school' }).waitFor();
  await page.getByRole('link', { name: 'Try again' }).waitFor();
  await page.getByRole('link', { name: 'Back to sign in' }).waitFor();
  await expectNoSeriousFindings(page);
  await screenshot(page, 'school-sign-in-problem');
  expect(usersWithEmail(server, 'someone@elsewhere.test')).toBe(0);
  expect(identitiesOf(server, 'outsider')).toBe(0);
  expect((await currentUser(context)).status).toBe(401);
  await page.getByRole('link', { name: 'Back to sign in' }).click();
  await page.waitForURL('**/login');
  await context.close();
});

test('Settings on a phone with school sign-in: all four tabs in sight without scrolling, Profile Picture open', async () => {
  const account = await createAccount(server, mail, 'Pia Phone', 'student');
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  await context.addCookies([{ name: 'token', value: account.token, url: server.baseUrl }]);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/settings`);
  const linked = page.getByRole('tab', { name: 'Linked sign-in' });
  await linked.waitFor();
  expect(await page.getByRole('tab', { name: 'Profile Picture' }).getAttribute('aria-selected')).toBe('true');
  const tabs = await page.getByRole('tab').all();
  expect(tabs).toHaveLength(4);
  for (const tab of tabs) {
    const box = await tab.boundingBox();
    const inSight = (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= 375;
    expect({ tab: await tab.textContent(), inSight }).toEqual({ tab: await tab.textContent(), inSight: true });
  }
  const list = page.getByRole('tablist', { name: 'Settings' });
  expect(await list.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  await screenshot(page, 'settings-tabs-school-phone');
  await linked.click();
  expect(await linked.getAttribute('aria-selected')).toBe('true');
  await context.close();
});

test('an email of a password account is never merged; its owner links the school account from Settings', async () => {
  const owner = await createAccount(server, mail, 'Owner Person', 'student');
  provider.setAccount('owner', { email: owner.email, email_verified: true, name: 'Owner At School' });
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await signInAtSchool(page, 'owner');
  expect(new URL(page.url()).search).toBe('?problem=email_in_use');
  await page.getByRole('heading', { name: 'You already have an account' }).waitFor();
  await page
    .getByText('An account with this email already exists. Sign in with your password, then link your school')
    .waitFor();
  expect((await currentUser(context)).status).toBe(401);
  expect(usersWithEmail(server, owner.email)).toBe(1);
  expect(identitiesOf(server, 'owner')).toBe(0);

  // The owner signs in with the password and links the school account from Settings.
  await page.getByRole('link', { name: 'Sign in with your password' }).click();
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/classroom');
  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('tab', { name: 'Linked sign-in' }).click();
  await signInAtSchool(page, 'owner', page.getByRole('link', { name: 'Link school account' }));
  await page.getByText('Your school account is linked.').waitFor();
  // The confirmation stays; the address bar loses ?linked=school.
  await page.waitForURL((url) => url.pathname === '/settings' && url.search === '');
  await page.getByRole('button', { name: `Unlink ${owner.email}` }).waitFor();
  expect(identitiesOf(server, 'owner')).toBe(1);
  await expectNoSeriousFindings(page);
  await screenshot(page, 'settings-linked-sign-in');

  // Signed out, the school button now reaches the owner's account.
  await logOutInSettings(page);
  await signInAtSchool(page, 'owner');
  expect((await currentUser(context)).user?._id).toBe(owner.user._id);

  // With a password as well, the school account can be unlinked (after a confirmation).
  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('tab', { name: 'Linked sign-in' }).click();
  await page.getByRole('button', { name: `Unlink ${owner.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Unlink school account?' });
  await dialog.getByRole('button', { name: 'Unlink' }).click();
  await page.getByRole('link', { name: 'Link school account' }).waitFor();
  expect(identitiesOf(server, 'owner')).toBe(0);
  await context.close();
});

test('an invite link survives the school round trip: the pupil lands enrolled in the class', async () => {
  const teacher = await createAccount(server, mail, 'Ada Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Chemistry 7B' });
  provider.setAccount('pupil2', { email: 'pupil2@school.test', email_verified: true, name: 'Pupil Two' });
  const context = await newContext(375);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/join/${course.inviteCode}`);
  await page.getByRole('heading', { name: "You're invited to Chemistry 7B" }).waitFor();
  await page.getByText("Ada Teacher's class.").waitFor();
  await page.getByRole('link', { name: 'Create your account' }).waitFor();
  await page.getByRole('link', { name: 'Log in' }).waitFor();
  await expectNoSeriousFindings(page);
  await screenshot(page, 'join-invite-landing-school');
  await signInAtSchool(page, 'pupil2');
  await page.getByRole('heading', { name: 'Chemistry 7B' }).waitFor({ timeout: 15_000 });
  expect(new URL(page.url()).pathname).toBe(`/classroom/${course._id}`);
  expect(await page.evaluate(() => localStorage.getItem('pendingInviteCode'))).toBeNull();
  const pupil = await currentUser(context);
  const roster = await teacher.api('GET', `/api/courses/${course._id}/students`);
  expect(JSON.stringify(roster)).toContain(pupil.user._id);
  await context.close();
});

test('every problem code reads in words, an unknown one too; signed in, the way back is Settings', async () => {
  const context = await newContext(375);
  const page = await context.newPage();
  const pages = [
    ['expired', 'The sign-in took too long', true],
    ['provider_unavailable', 'Your school’s sign-in is not answering', true],
    ['email_unverified', 'Your school email is not confirmed', false],
    ['already_linked', 'This school account is already in use', false],
    ['account_disabled', 'This account is turned off', false],
    ['confirm_mismatch', 'That was a different school account', false],
    ['invalid_response', 'Your school’s answer could not be trusted', true],
    ['something_new', 'School sign-in did not work', true],
  ] as const;
  for (const [code, title, retry] of pages) {
    await page.goto(`${server.baseUrl}/school-sign-in?problem=${code}`);
    await page.getByRole('heading', { name: title }).waitFor();
    await page.getByRole('link', { name: 'Back to sign in' }).waitFor();
    expect({ code, retry: await page.getByRole('link', { name: 'Try again' }).count() }).toEqual({
      code,
      retry: retry ? 1 : 0,
    });
  }
  const start = new URL(
    (await page.getByRole('link', { name: 'Try again' }).getAttribute('href')) ?? '',
    server.baseUrl,
  );
  expect(start.pathname).toBe('/api/auth/oidc/start');
  await context.close();

  // Linking from Settings failed: the way back is Settings, and Try again links again.
  const account = await createAccount(server, mail, 'Linking Person', 'student');
  const signedIn = await browser.newContext({ viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  await signedIn.addCookies([{ name: 'token', value: account.token, url: server.baseUrl }]);
  const linking = await signedIn.newPage();
  await linking.goto(`${server.baseUrl}/school-sign-in?problem=already_linked`);
  await linking.getByRole('heading', { name: 'This school account is already in use' }).waitFor();
  await linking.getByRole('link', { name: 'Back to Settings' }).click();
  await linking.waitForURL('**/settings');
  await signedIn.close();
});

test('a tampered state, or a cancel at the provider, ends on a problem page without a session', async () => {
  provider.setAccount('pupil3', { email: 'pupil3@school.test', email_verified: true, name: 'Pupil Three' });
  const context = await newContext();
  const page = await context.newPage();
  // The state sent to the provider is not the one this browser's sign-in keeps: the provider hands the altered
  // state back, as an attacker's crafted callback link would carry one. (Interception sees the navigation the
  // button starts, not the redirects after it: the start's 302 is rewritten.)
  const isStart = (url: URL) => url.pathname === '/api/auth/oidc/start';
  await page.route(isStart, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = new URL(response.headers().location);
    location.searchParams.set('state', `${location.searchParams.get('state')}x`);
    const headers = response.headersArray().filter((header) => header.name.toLowerCase() !== 'location');
    await route.fulfill({
      status: response.status(),
      headers: Object.fromEntries([...headers.map((h) => [h.name, h.value]), ['location', location.href]]),
    });
  });
  await page.goto(`${server.baseUrl}/login`);
  await signInAtSchool(page, 'pupil3');
  expect(new URL(page.url()).search).toBe('?problem=state_mismatch');
  await page.getByRole('heading', { name: 'This sign-in could not be checked' }).waitFor();
  expect((await currentUser(context)).status).toBe(401);
  expect(usersWithEmail(server, 'pupil3@school.test')).toBe(0);
  await page.unroute(isStart);

  // "Try again" starts a new sign-in, which now works.
  await signInAtSchool(page, 'pupil3', page.getByRole('link', { name: 'Try again' }));
  expect((await currentUser(context)).user).toMatchObject({ email: 'pupil3@school.test' });
  await context.close();

  const another = await newContext();
  const cancelling = await another.newPage();
  await cancelling.goto(`${server.baseUrl}/login`);
  await cancelling.getByRole('link', { name: LABEL }).click();
  await cancelling.getByRole('link', { name: /Cancel/ }).click();
  await cancelling.getByRole('heading', { name: 'Sign-in cancelled' }).waitFor();
  expect(new URL(cancelling.url()).search).toBe('?problem=cancelled');
  await expectNoSeriousFindings(cancelling);
  await another.close();
});

test('school sign-in only: the password forms are hidden and the password routes refuse', async () => {
  const context = await newContext(375);
  const page = await context.newPage();
  for (const path of ['/login', '/signup']) {
    await page.goto(`${schoolOnly.baseUrl}${path}`);
    await page.getByRole('link', { name: LABEL }).waitFor();
    await page.getByText('This school signs in with its school account').waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Sign up' }).count()).toBe(0);
    await expectNoSeriousFindings(page);
  }
  await screenshot(page, 'signup-school-only');
  await page.goto(`${schoolOnly.baseUrl}/forgot-password`);
  await page.getByRole('heading', { name: 'There is no password to reset' }).waitFor();
  await page.goto(`${schoolOnly.baseUrl}/verify-email?email=a%40school.test`);
  await page.getByRole('heading', { name: 'There is no email code to enter' }).waitFor();

  const call = apiClient(schoolOnly.baseUrl);
  const register = await call('POST', '/api/users/register', {
    body: { username: 'Pass Word', email: 'password@school.test', password: 'a long password', role: 'student' },
  });
  const login = await call('POST', '/api/users/login', {
    body: { email: 'password@school.test', password: 'a long password' },
  });
  expect([register.status, register.json.code, login.status, login.json.code]).toEqual([
    403,
    'password_signin_off',
    403,
    'password_signin_off',
  ]);
  expect(usersWithEmail(schoolOnly, 'password@school.test')).toBe(0);

  // The school's button still signs in.
  provider.setAccount('pupil4', { email: 'pupil4@school.test', email_verified: true, name: 'Pupil Four' });
  await page.goto(`${schoolOnly.baseUrl}/login`);
  await signInAtSchool(page, 'pupil4');
  const pupil = await currentUser(context, schoolOnly);
  expect(pupil.user).toMatchObject({ email: 'pupil4@school.test' });

  // OIDC_END_SESSION: logging out ends the session here, then signs out at the school's provider too.
  await page.goto(`${schoolOnly.baseUrl}/settings`);
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  expect(new URL(page.url()).searchParams.get('post_logout_redirect_uri')).toBe(`${schoolOnly.baseUrl}/`);
  const after = await apiClient(schoolOnly.baseUrl)('GET', '/api/users', { as: pupil.token });
  expect(after.status).toBe(401);
  // The provider asks to confirm, then sends the browser back to the app, signed out.
  await page.getByRole('button', { name: /yes, sign me out/i }).click();
  await page.waitForURL(`${schoolOnly.baseUrl}/login`);
  await page.getByRole('link', { name: LABEL }).waitFor();
  await context.close();
});

test('a school-only pupil deletes their account after confirming with the school; a next sign-in is a new account', async () => {
  provider.setAccount('leaver1', { email: 'leaver1@school.test', email_verified: true, name: 'Lee Leaver' });
  const context = await newContext();
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await signInAtSchool(page, 'leaver1');
  const before = await currentUser(context);
  expect(before.user).toMatchObject({ email: 'leaver1@school.test' });

  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('tab', { name: 'Security' }).click();
  const danger = page.getByRole('region', { name: 'Delete my account' });
  await danger.getByText('Your account has no password, so first confirm it is you').waitFor();
  expect(await danger.getByLabel('Your password, to confirm').count()).toBe(0);
  // The provider asks again (prompt=login), though this browser signed in there moments ago.
  await danger.getByRole('link', { name: 'Confirm with your school account' }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.locator('input[name="login"]').fill('leaver1');
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.waitForURL((url) => url.pathname === '/settings' && !url.search.includes('confirmed'));
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByText('This confirmation lasts 5 minutes').waitFor();
  const proof = (await context.cookies(`${server.baseUrl}/api/users`)).find((cookie) => cookie.name === 'reauth');
  expect(proof).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/users' });
  await expectNoSeriousFindings(page);
  await screenshot(page, 'settings-delete-school-account');

  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Your account was deleted.').waitFor();
  expect(count(server, 'SELECT count(*) AS n FROM users WHERE id = ?', before.user._id)).toBe(0);
  expect(count(server, 'SELECT count(*) AS n FROM sessions WHERE user_id = ?', before.user._id)).toBe(0);
  expect((await apiClient(server.baseUrl)('GET', '/api/users', { as: before.token })).status).toBe(401);

  // The same school account signs in again: a new, empty account (the old one is gone for good).
  await signInAtSchool(page, 'leaver1');
  const after = await currentUser(context);
  expect(after.user?.email).toBe('leaver1@school.test');
  expect(after.user?._id).not.toBe(before.user._id);
  expect(usersWithEmail(server, 'leaver1@school.test')).toBe(1);
  await context.close();
});

test('a school-only pupil chooses a password after confirming, then signs in with it; a refused domain offers another account', async () => {
  provider.setAccount('chooser1', { email: 'chooser1@school.test', email_verified: true, name: 'Cho Oser' });
  const context = await newContext(375);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await signInAtSchool(page, 'chooser1');
  await page.goto(`${server.baseUrl}/settings`);
  await page.getByRole('tab', { name: 'Security' }).click();
  const security = page.getByRole('tabpanel');
  await security.getByText('To sign in with a password as well').waitFor();
  const confirmLinks = security.getByRole('link', { name: 'Confirm with your school account' });
  expect(await confirmLinks.count()).toBe(2);
  await signInAtSchool(page, 'chooser1', confirmLinks.first());
  await page.getByText('You confirmed with your school account. Choose your password within 5 minutes.').waitFor();
  const password = 'a password chosen later';
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Confirm new password').fill(password);
  await expectNoSeriousFindings(page);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await page.getByText('Your password is set').waitFor();
  // Now a password account: the Security tab asks for the current password, and delete asks for it too.
  await page.getByLabel('Current password').waitFor();
  await page.getByLabel('Your password, to confirm').waitFor();
  const login = await apiClient(server.baseUrl)('POST', '/api/users/login', {
    body: { email: 'chooser1@school.test', password },
  });
  expect(login.status).toBe(200);

  // "Try again" after a refused domain lets the person pick another account at the provider.
  await page.goto(`${server.baseUrl}/school-sign-in?problem=domain_not_allowed`);
  const retry = new URL(
    (await page.getByRole('link', { name: 'Try again' }).getAttribute('href')) ?? '',
    server.baseUrl,
  );
  expect(retry.searchParams.get('switch')).toBe('1');
  await context.close();
});
