import { expect, test } from 'bun:test';
import { seriousA11yFindings } from './browser';
import { e2eEnvironment } from './environment';
import { createAccount, screenshot, signedInContext } from './server';

const env = e2eEnvironment();

test('a teacher signs up, verifies by emailed code, renames in settings, logs out and back in', async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const email = 'grace.teacher@example.test';
  const password = 'a long enough password';

  await page.goto(`${env.server.baseUrl}/`);
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  await screenshot(page, 'login');

  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
  await page.getByLabel('Name').fill('Grace Teacher');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Show password' }).click();
  expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
  await page.getByText('teacher', { exact: true }).click();
  await screenshot(page, 'signup');
  await page.getByRole('button', { name: 'Sign Up' }).click();

  await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
  await page.getByText('Registration successful! Please verify your email with the OTP sent.').waitFor();
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await page.getByText('Please enter the OTP sent to your email').waitFor();
  const code = await env.mail.codeFor(email);
  await page.getByLabel('Verification code').fill(code);
  await screenshot(page, 'verify-email');
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await page.getByText('Email verified successfully!').waitFor();
  await page.waitForURL('**/classroom');
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  await screenshot(page, 'classroom-empty');

  await page.getByRole('link', { name: 'Open settings' }).click();
  await page.waitForURL('**/settings');
  // Settings opens on Profile Picture, as the spec says; the name is one tab away.
  expect(await page.getByRole('tab', { name: 'Profile Picture' }).getAttribute('aria-selected')).toBe('true');
  expect(await page.title()).toBe('Settings · Classroom');
  await screenshot(page, 'settings');
  await page.getByRole('tab', { name: 'Profile Info' }).click();
  await page.getByLabel('Name').fill('G');
  await page.getByRole('button', { name: 'Save Name' }).click();
  await page.getByText('Please enter a valid name').waitFor();
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByRole('button', { name: 'Save Name' }).click();
  await page.getByText('Name updated successfully!').waitFor();
  await page.getByText('Grace Hopper', { exact: true }).first().waitFor();

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Logged out successfully').waitFor();
  await page.goto(`${env.server.baseUrl}/settings`);
  await page.waitForURL('**/login');

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('wrong password!');
  await page.getByRole('button', { name: 'Log In' }).click();
  // Said under the form too, where it stays after the toast has gone.
  await page.locator('form [role="alert"]').getByText('Invalid email or password. Please try again.').waitFor();
  expect(await page.title()).toBe('Sign in · Classroom');
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByText('Login successful!').waitFor();
  // Back to the page asked for while signed out.
  await page.waitForURL('**/settings');
  await page.getByText('Grace Hopper', { exact: true }).first().waitFor();
  await page.close();
});

test('settings on a phone: every tab in sight in one row, Profile Picture open; deleting the account asks first', async () => {
  const account = await createAccount(env.server, env.mail, 'Della Deleter', 'student');
  const context = await signedInContext(env.browser, env.server, account.token, { width: 375, height: 812 });
  const page = await context.newPage();

  // The Join class code: typed uppercase, the placeholder as written.
  await page.goto(`${env.server.baseUrl}/classroom`);
  await page.getByRole('button', { name: 'Join class' }).click();
  const code = page.getByLabel('Class code');
  expect(await code.getAttribute('placeholder')).toBe('e.g. K7PQ2XM');
  expect(await code.evaluate((input) => getComputedStyle(input).textTransform)).toBe('uppercase');
  expect(await code.evaluate((input) => getComputedStyle(input, '::placeholder').textTransform)).toBe('none');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await page.goto(`${env.server.baseUrl}/settings`);
  const tabs = page.getByRole('tab');
  await page.getByRole('tab', { name: 'Profile Picture' }).waitFor();
  expect(await page.getByRole('tab', { name: 'Profile Picture' }).getAttribute('aria-selected')).toBe('true');
  // Each tab wholly on screen, and the tab list does not scroll sideways.
  expect(await tabs.count()).toBeGreaterThanOrEqual(3);
  for (const tab of await tabs.all()) {
    const box = await tab.boundingBox();
    expect({
      tab: await tab.textContent(),
      left: (box?.x ?? -1) >= 0,
      right: (box?.x ?? 0) + (box?.width ?? 0) <= 375,
    }).toEqual({
      tab: await tab.textContent(),
      left: true,
      right: true,
    });
  }
  const list = page.getByRole('tablist', { name: 'Settings' });
  expect(await list.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
  // One row, as from sm up (the walk-through found a grid of two rows on a phone).
  const tops = await tabs.evaluateAll((all) => all.map((tab) => Math.round(tab.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await screenshot(page, 'settings-phone');

  // Deleting asks first, saying what goes; Cancel changes nothing.
  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByLabel('Your password, to confirm').fill(account.password);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await dialog.getByText('your notes, comments, likes and watch history').waitFor();
  await dialog.getByText('This cannot be undone.').waitFor();
  expect(await seriousA11yFindings(page)).toEqual([]);
  await screenshot(page, 'settings-delete-account-phone');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect((await account.api('GET', '/api/users')).email).toBe(account.email);

  // Confirmed, the account is gone.
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL('**/login');
  await page.getByText('Your account was deleted.').waitFor();
  expect((await account.api('GET', '/api/users')).error).toBeString();
  await context.close();
});

test('the 404 page, and verify-email without an address', async () => {
  const page = await env.browser.newPage({ viewport: { width: 375, height: 812 } });
  await page.goto(`${env.server.baseUrl}/no/such/page`);
  await page.getByRole('heading', { name: 'Oops! Page Not Found' }).waitFor();
  await screenshot(page, 'not-found-phone');
  await page.getByRole('button', { name: 'Return to Dashboard' }).click();
  await page.waitForURL('**/login');

  await page.goto(`${env.server.baseUrl}/verify-email`);
  await page.getByText('No email address provided for verification.').waitFor();
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await page.waitForURL('**/login');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
  expect(overflow).toBe(false);
  await page.close();
});

test('an unverified account logging in is sent to the code screen, and the code works there', async () => {
  const page = await env.browser.newPage({ viewport: { width: 375, height: 812 } });
  const email = 'late.verifier@example.test';
  // Signed up earlier from this browser (its request shares the page's cookies, so the sign-up is bound to it).
  const response = await page.request.post(`${env.server.baseUrl}/api/users/register`, {
    data: { username: 'Late', email, password: 'password1234', role: 'student' },
  });
  expect(response.status()).toBe(201);
  const code = await env.mail.codeFor(email);
  await page.goto(`${env.server.baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('password1234');
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify Email' }).click();
  await page.waitForURL('**/classroom');
  await screenshot(page, 'classroom-phone');
  await page.close();
});

test("sign-up takeover: the code typed in a browser that did not sign up asks for a password; the attacker's never opens the account", async () => {
  const email = 'owner.of.the.mailbox@example.test';
  const attackerPassword = 'the attacker typed this';
  const ownerPassword = 'the owner chose this';
  const signUp = async (page: import('playwright-core').Page, name: string, password: string) => {
    await page.goto(`${env.server.baseUrl}/signup`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
  };

  // The attacker signs the owner's address up with their own password; the code goes to the owner's mailbox.
  const attacker = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const attackerPage = await attacker.newPage();
  await signUp(attackerPage, 'Mallory', attackerPassword);
  await attackerPage.getByRole('heading', { name: 'Verify Your Email' }).waitFor();
  const code = await env.mail.codeFor(email);

  // The owner tries to sign up a moment later and is refused (one code a minute): no sign-up of theirs exists.
  const owner = await env.browser.newContext({ viewport: { width: 375, height: 812 } });
  const ownerPage = await owner.newPage();
  await signUp(ownerPage, 'Olive Owner', 'what the owner first typed');
  await ownerPage.getByText(/Please wait \d+ seconds before asking for a new code/).waitFor();
  expect((await owner.cookies()).some((cookie) => cookie.name === 'signup')).toBe(false);

  // The owner types the mailed code on the verify page: the code is right, and a password is asked for.
  await ownerPage.goto(`${env.server.baseUrl}/verify-email?email=${encodeURIComponent(email)}`);
  await ownerPage.getByLabel('Verification code').fill(code);
  await ownerPage.getByRole('button', { name: 'Verify Email' }).click();
  await ownerPage.getByRole('heading', { name: 'Choose your password' }).waitFor();
  // Away from the sign-up's browser, the name and role are asked again: the attacker's "Mallory" is not offered.
  expect(await ownerPage.getByLabel('Name').inputValue()).toBe('');
  await ownerPage.getByLabel('Name').fill('Olive Owner');
  // Too short: said in words on the page (not only in a browser bubble, which WebKit never shows).
  await ownerPage.getByLabel('New password', { exact: true }).fill('abc');
  await ownerPage.getByLabel('Confirm new password').fill('abc');
  await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
  await ownerPage.getByText('Use 8 to 200 characters for your password.').waitFor();
  await ownerPage.getByLabel('New password', { exact: true }).fill(ownerPassword);
  await ownerPage.getByLabel('Confirm new password').fill('not the same password');
  await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
  await ownerPage.getByText("The passwords don't match.").waitFor();
  await ownerPage.getByLabel('Confirm new password').fill(ownerPassword);
  expect(await seriousA11yFindings(ownerPage)).toEqual([]);
  await screenshot(ownerPage, 'choose-password-phone');
  await ownerPage.getByRole('button', { name: 'Set password and sign in' }).click();
  await ownerPage.getByText('Email verified successfully!').waitFor();
  await ownerPage.waitForURL('**/classroom');
  await ownerPage.getByRole('heading', { name: 'Your classes' }).waitFor();
  await owner.close();

  // The attacker's password, from the attacker's own browser (the one holding the sign-up's cookie), fails.
  await attackerPage.goto(`${env.server.baseUrl}/login`);
  await attackerPage.getByLabel('Email').fill(email);
  await attackerPage.getByLabel('Password', { exact: true }).fill(attackerPassword);
  await attackerPage.getByRole('button', { name: 'Log In' }).click();
  await attackerPage.locator('form [role="alert"]').getByText('Invalid email or password. Please try again.').waitFor();
  expect(attackerPage.url()).toEndWith('/login');
  const loginUrl = `${env.server.baseUrl}/api/users/login`;
  expect((await attackerPage.request.post(loginUrl, { data: { email, password: attackerPassword } })).status()).toBe(
    401,
  );
  const ownerLogin = await fetch(loginUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: ownerPassword }),
  });
  expect(ownerLogin.status).toBe(200);
  expect((await ownerLogin.json()).user).toMatchObject({ username: 'Olive Owner', role: 'student' });
  await attacker.close();
});

test('forgot password: the emailed code sets a new one and signs in; logout ends the session on the server', async () => {
  const account = await createAccount(env.server, env.mail, 'Fergus Forgetful', 'student');
  const page = await env.browser.newPage({ viewport: { width: 375, height: 812 } });
  await page.goto(`${env.server.baseUrl}/login`);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  const code = await env.mail.nthCode(account.email, 2);
  await page.getByLabel('Code from the email').fill(code);
  await page.getByLabel('New password', { exact: true }).fill('a fresh password');
  await page.getByLabel('Confirm new password').fill('a fresh password');
  expect(await seriousA11yFindings(page)).toEqual([]);
  await screenshot(page, 'reset-password-phone');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.waitForURL('**/classroom');
  // The old password and the old session are gone.
  expect((await account.api('GET', '/api/users')).error).toBeString();

  const token = (await page.context().cookies()).find((cookie) => cookie.name === 'token')?.value as string;
  await page.goto(`${env.server.baseUrl}/settings`);
  await page.getByRole('button', { name: 'Logout', exact: true }).click();
  await page.waitForURL('**/login');
  const after = await fetch(`${env.server.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
  expect(after.status).toBe(401);
  await page.close();
});

test('signed out, a deep link comes back after login; a 502 at start-up keeps the login', async () => {
  const account = await createAccount(env.server, env.mail, 'Dora Deeplink', 'student');
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.server.baseUrl}/history`);
  await page.waitForURL('**/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/history');
  await page.getByRole('heading', { name: 'History' }).waitFor();

  let failing = true;
  await page.route('**/api/users', (route) =>
    failing ? route.fulfill({ status: 502, body: 'Bad gateway' }) : route.continue(),
  );
  await page.goto(`${env.server.baseUrl}/classroom`);
  await page.getByRole('heading', { name: 'Cannot reach the server' }).waitFor();
  expect((await context.cookies()).some((cookie) => cookie.name === 'token' && cookie.value !== '')).toBe(true);
  failing = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('heading', { name: 'Your classes' }).waitFor();
  await context.close();
});
