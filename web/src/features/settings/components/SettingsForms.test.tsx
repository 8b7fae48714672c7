import { afterEach, beforeAll, expect, test } from 'bun:test';
import { LIMITS } from '@contract/limits';
import { prefetchProviders } from '@lib/providers';
import type { User } from '@lib/session';
import { renderInApp, signInAs } from '@test/render';
import { realServer, TEST_PASSWORD } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { LanguageForm } from './LanguageForm';
import { ProfileInfoForm } from './ProfileInfoForm';
import { SecurityForm } from './SecurityForm';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);

/** The profile form with the page's user beside it, as the Settings page shows the saved name in its header. */
function Profile({ first }: { first: User }) {
  const [user, setUser] = useState(first);
  return (
    <>
      <p data-testid="shown-name">{user.username}</p>
      <ProfileInfoForm user={user} onSaved={setUser} />
    </>
  );
}

type Account = Awaited<ReturnType<typeof server.signUp>>;
/** Two accounts for the file (each sign-up costs the server two password hashes): one renamed, one re-passworded. */
let profileAccount: Account;
let passwordAccount: Account;
beforeAll(async () => {
  [profileAccount, passwordAccount] = await Promise.all([
    server.signUp('student', 'Profile Student'),
    server.signUp('student', 'Password Student'),
  ]);
});

/** Signs the page in as the account, with its user as the server has it now, and the ways to sign in known. */
async function signedIn(account: Account) {
  const user = (await server.api('GET', '/api/users', undefined, account.token)).json;
  signInAs({ ...account, user });
  // As the app asks for them at start: the form then never updates itself after the test has moved on.
  await prefetchProviders();
  return { ...account, user };
}

const nameOnServer = async (token: string) => (await server.api('GET', '/api/users', undefined, token)).json.username;

test('profile: the name field takes the shared limit; the email is shown but cannot be edited', async () => {
  const account = await signedIn(profileAccount);
  renderInApp(<Profile first={account.user} />);
  const name = screen.getByLabelText('Name') as HTMLInputElement;
  expect(name.value).toBe(account.user.username);
  expect(name.maxLength).toBe(LIMITS.usernameMax);
  const email = screen.getByLabelText('Email') as HTMLInputElement;
  expect(email.value).toBe(account.email);
  expect(email.readOnly).toBe(true);
});

test('profile: a name too short is refused before sending', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(profileAccount);
  renderInApp(<Profile first={account.user} />);
  await user.clear(screen.getByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), 'x'.repeat(LIMITS.usernameMin - 1));
  await user.click(screen.getByRole('button', { name: 'Save Name' }));
  expect(await screen.findByText('Please enter a valid name')).toBeDefined();
  expect(await nameOnServer(account.token)).toBe(account.user.username);
});

test('profile: saving shows "Saving..." on a disabled button, then the new name everywhere', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(profileAccount);
  renderInApp(<Profile first={account.user} />);
  await user.clear(screen.getByLabelText('Name'));
  await user.type(screen.getByLabelText('Name'), '  Renamed Student  ');
  await user.click(screen.getByRole('button', { name: 'Save Name' }));
  expect((screen.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement).disabled).toBe(true);
  expect(await screen.findByText('Name updated successfully!')).toBeDefined();
  expect(screen.getByTestId('shown-name').textContent).toBe('Renamed Student');
  expect(await nameOnServer(account.token)).toBe('Renamed Student');
});

test('new password: both fields take the shared minimum and say it', async () => {
  const account = await signedIn(passwordAccount);
  renderInApp(<SecurityForm user={account.user} />);
  const next = (await screen.findByLabelText('New password')) as HTMLInputElement;
  const confirm = screen.getByLabelText('Confirm new password') as HTMLInputElement;
  for (const field of [next, confirm]) {
    expect(field.required).toBe(true);
    expect(field.minLength).toBe(LIMITS.passwordMin);
    expect(field.type).toBe('password');
  }
  // Said once, as the new password's hint, and read with that field.
  expect(screen.getAllByText(new RegExp(`At least ${LIMITS.passwordMin} characters`))).toHaveLength(1);
  const hint = document.getElementById(next.getAttribute('aria-describedby') ?? '');
  expect(hint?.textContent).toBe(`At least ${LIMITS.passwordMin} characters.`);
});

/** Whether the account's token still works: a password change signs every other session out. */
const tokenWorks = async (token: string) => (await server.api('GET', '/api/users', undefined, token)).status === 200;

/** The words a field is described by while it is invalid (its problem, in its hint's place). */
function describedWords(field: HTMLElement) {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  return (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '');
}

const passwordPath = (account: Account) => `/api/users/${account.user._id}/password`;

test('new password: two different new passwords are said under the second one, and nothing is sent', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(passwordAccount);
  const before = await server.requests('PATCH', passwordPath(account));
  renderInApp(<SecurityForm user={account.user} />);
  await user.type(await screen.findByLabelText('Current password'), TEST_PASSWORD);
  await user.type(screen.getByLabelText('New password'), 'a brand new secret');
  await user.type(screen.getByLabelText('Confirm new password'), 'another new secret');
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
  expect(await screen.findByText("New passwords don't match")).toBeDefined();
  expect(describedWords(screen.getByLabelText('Confirm new password'))).toEqual(["New passwords don't match"]);
  expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBeNull();
  expect(screen.getByRole('button', { name: 'Update Password' })).toBeDefined();
  expect(await server.requests('PATCH', passwordPath(account))).toBe(before);
  expect(await tokenWorks(account.token)).toBe(true);
});

test("new password: one too short is said under it in the server's words, and nothing is sent", async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(passwordAccount);
  const short = 'x'.repeat(LIMITS.passwordMin - 1);
  const refusal = await server.api(
    'PATCH',
    passwordPath(account),
    { currentPassword: TEST_PASSWORD, newPassword: short },
    account.token,
  );
  expect(refusal.status).toBe(400);
  const before = await server.requests('PATCH', passwordPath(account));
  renderInApp(<SecurityForm user={account.user} />);
  await user.type(await screen.findByLabelText('Current password'), TEST_PASSWORD);
  await user.type(screen.getByLabelText('New password'), short);
  await user.type(screen.getByLabelText('Confirm new password'), short);
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
  expect(await screen.findByText(refusal.json.fields.newPassword)).toBeDefined();
  // The problem takes the hint's place: one line under the field, not the rule twice.
  expect(describedWords(screen.getByLabelText('New password'))).toEqual([refusal.json.fields.newPassword]);
  expect(screen.queryByText(`At least ${LIMITS.passwordMin} characters.`)).toBeNull();
  // Fixed as it is typed: the problem goes and the hint comes back, read with the field.
  await user.type(screen.getByLabelText('New password'), 'xxxx');
  await waitFor(() => expect(screen.queryByText(refusal.json.fields.newPassword)).toBeNull());
  const next = screen.getByLabelText('New password');
  expect(next.getAttribute('aria-invalid')).toBeNull();
  expect(document.getElementById(next.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
    `At least ${LIMITS.passwordMin} characters.`,
  );
  expect(await server.requests('PATCH', passwordPath(account))).toBe(before);
  expect(await tokenWorks(account.token)).toBe(true);
});

test("new password: a wrong current password shows the server's reason under the failure", async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(passwordAccount);
  const refusal = await server.api(
    'PATCH',
    `/api/users/${account.user._id}/password`,
    { currentPassword: 'not my password', newPassword: 'a brand new secret' },
    account.token,
  );
  expect(refusal.status).toBeGreaterThanOrEqual(400);
  renderInApp(<SecurityForm user={account.user} />);
  await user.type(await screen.findByLabelText('Current password'), 'not my password');
  await user.type(screen.getByLabelText('New password'), 'a brand new secret');
  await user.type(screen.getByLabelText('Confirm new password'), 'a brand new secret');
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
  expect((screen.getByRole('button', { name: 'Updating...' }) as HTMLButtonElement).disabled).toBe(true);
  expect(await screen.findByText('Failed to update password. Please try again.')).toBeDefined();
  // In the toast, and under the field it is about.
  expect(screen.getAllByText(refusal.json.error)).toHaveLength(2);
  expect(describedWords(screen.getByLabelText('Current password'))).toEqual([refusal.json.fields.currentPassword]);
  expect(await tokenWorks(account.token)).toBe(true);
});

test('new password: the right current password changes it, empties the fields and signs other sessions out', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(passwordAccount);
  renderInApp(<SecurityForm user={account.user} />);
  await user.type(await screen.findByLabelText('Current password'), TEST_PASSWORD);
  await user.type(screen.getByLabelText('New password'), 'a brand new secret');
  await user.type(screen.getByLabelText('Confirm new password'), 'a brand new secret');
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
  expect(await screen.findByText('Password updated successfully')).toBeDefined();
  await waitFor(() => expect((screen.getByLabelText('New password') as HTMLInputElement).value).toBe(''));
  expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  const login = await server.api('POST', '/api/users/login', { email: account.email, password: 'a brand new secret' });
  expect(login.status).toBe(200);
});

const localeOnServer = async (token: string) => (await server.api('GET', '/api/users', undefined, token)).json.locale;

test('language: a choice the server refuses shows its words and changes nothing; a saved one switches the app', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await signedIn(profileAccount);
  const saved: User[] = [];
  const switched: (string | undefined)[] = [];
  // This server offers every language but the pseudo one (LOCALES' default): that one is refused.
  renderInApp(
    <LanguageForm
      user={account.user}
      onSaved={(updated) => saved.push(updated)}
      offered={['en', 'es', 'en-XA']}
      onSwitch={(locale) => switched.push(locale)}
    />,
  );
  const select = screen.getByLabelText('Show the app in') as HTMLSelectElement;
  expect(select.value).toBe('');
  expect([...select.options].map((option) => [option.value, option.lang, option.textContent])).toEqual([
    ['', '', "Automatic (this browser's language)"],
    ['en', 'en', 'English'],
    ['es', 'es', 'Español'],
    ['en-XA', 'en-XA', '[Ƥšéúðö]'],
  ]);

  const refusal = await server.api('PATCH', `/api/users/${account.user._id}`, { locale: 'en-XA' }, account.token);
  expect(refusal.status).toBe(400);
  await user.selectOptions(select, 'en-XA');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Could not save your language. Please try again.')).toBeDefined();
  expect(screen.getAllByText(refusal.json.error).length).toBeGreaterThan(0);
  expect(saved).toEqual([]);
  expect(switched).toEqual([]);
  expect(await localeOnServer(account.token)).toBeNull();

  await user.selectOptions(select, 'es');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByText('Language saved')).toBeDefined();
  expect(saved.map((updated) => updated.locale)).toEqual(['es']);
  expect(switched).toEqual(['es']);
  expect(await localeOnServer(account.token)).toBe('es');

  // Automatic again: the account follows the browser, and the app is told to.
  await user.selectOptions(select, '');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(switched).toEqual(['es', undefined]));
  await waitFor(() => expect(saved.at(-1)?.locale).toBeNull());
  expect(await localeOnServer(account.token)).toBeNull();
});
