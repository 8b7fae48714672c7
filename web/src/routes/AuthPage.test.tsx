import { afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import { queryClient } from '@api/query-client';
import { LIMITS } from '@contract/limits';
import { sessionAtom } from '@lib/session';
import { appStore } from '@lib/store';
import { QueryClientProvider } from '@tanstack/react-query';
import { signedOut } from '@test/render';
import { realServer, TEST_PASSWORD } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'jotai';
import { MemoryRouter, Route, Routes } from 'react-router';
import { LoginPage, SignupPage } from './AuthPage';

const server = realServer();
beforeAll(showToasts);
let account: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  account = await server.signUp('student', 'Signing In Student');
});
afterEach(clearToasts);
beforeEach(signedOut);

function renderAt(path: '/login' | '/signup') {
  return render(
    <Provider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/signup" element={<SignupPage />} />
            <Route path="/classes" element={<p>Your classes</p>} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </Provider>,
  );
}

/** The form once the server said how people sign in here. */
const form = async () => (await screen.findByRole('button', { name: /^(Log In|Sign Up)$/ })).closest('form')!;

test('sign-in: email and password are required, and the password is never shown unless asked', async () => {
  const user = userEvent.setup({ delay: null });
  renderAt('/login');
  const signIn = within(await form());
  const email = signIn.getByLabelText('Email') as HTMLInputElement;
  const password = signIn.getByLabelText('Password') as HTMLInputElement;
  expect(email.required).toBe(true);
  expect(email.type).toBe('email');
  expect(password.required).toBe(true);
  expect(password.type).toBe('password');
  await user.click(signIn.getByRole('button', { name: 'Show password' }));
  expect(password.type).toBe('text');
  expect(signIn.getByRole('button', { name: 'Hide password' }).getAttribute('aria-pressed')).toBe('true'); // The tab says which page this is (WCAG 2.4.2).
  expect(document.title).toBe('Sign in · Classroom');
});

test("sign-in: a wrong password shows the server's words, and the button is disabled while it asks", async () => {
  const user = userEvent.setup({ delay: null });
  const answer = await server.api('POST', '/api/users/login', { email: account.email, password: 'not the password' });
  expect(answer.status).toBe(401);
  renderAt('/login');
  const signIn = within(await form());
  await user.type(signIn.getByLabelText('Email'), account.email);
  await user.type(signIn.getByLabelText('Password'), 'not the password');
  await user.click(signIn.getByRole('button', { name: 'Log In' }));
  const sending = signIn.getByRole('button', { name: 'Logging in...' }) as HTMLButtonElement;
  expect(sending.disabled).toBe(true);
  const said = `${answer.json.error.replace(/[.!\s]+$/, '')}. Please try again.`;
  // Under the form as an alert, where it stays once the passing toast has gone.
  expect((await signIn.findByRole('alert')).textContent).toBe(said);
  expect(screen.getAllByText(said)).toHaveLength(2);
  expect((signIn.getByRole('button', { name: 'Log In' }) as HTMLButtonElement).disabled).toBe(false);
  expect(appStore.get(sessionAtom).status).not.toBe('authenticated');
  await clearToasts();
  expect(signIn.getByRole('alert').textContent).toBe(said);
  // A new try clears the last one's words while it asks.
  await user.click(signIn.getByRole('button', { name: 'Log In' }));
  expect(signIn.queryByRole('alert')).toBeNull();
  expect((await signIn.findByRole('alert')).textContent).toBe(said);
});

test('sign-in: the right password signs in and says so', async () => {
  const user = userEvent.setup({ delay: null });
  renderAt('/login');
  const signIn = within(await form());
  await user.type(signIn.getByLabelText('Email'), account.email);
  await user.type(signIn.getByLabelText('Password'), TEST_PASSWORD);
  await user.click(signIn.getByRole('button', { name: 'Log In' }));
  expect(await screen.findByText('Login successful!')).toBeDefined();
  await waitFor(() => expect(appStore.get(sessionAtom).user?.email).toBe(account.email));
});

test('sign-up: the name and password limits come from the shared LIMITS, and every field is required', async () => {
  renderAt('/signup');
  const signUp = within(await form());
  const name = signUp.getByLabelText('Name') as HTMLInputElement;
  expect(name.required).toBe(true);
  expect(name.minLength).toBe(LIMITS.usernameMin);
  expect(name.maxLength).toBe(LIMITS.usernameMax);
  const password = signUp.getByLabelText('Password') as HTMLInputElement;
  expect(password.minLength).toBe(LIMITS.passwordMin);
  expect(password.getAttribute('aria-describedby')).toBeTruthy();
  expect(signUp.getByText(`At least ${LIMITS.passwordMin} characters.`)).toBeDefined();
  expect((signUp.getByLabelText('Email') as HTMLInputElement).required).toBe(true);
  expect((signUp.getByRole('radio', { name: 'student' }) as HTMLInputElement).checked).toBe(true);
});

/** The words the server gives each field of a sign-up it refuses (its 400's `fields`). */
async function serverWordsFor(body: Record<string, unknown>) {
  const refusal = await server.api('POST', '/api/users/register', body);
  expect(refusal.status).toBe(400);
  return refusal.json.fields as Record<string, string>;
}

/** The field's problem as a screen reader meets it: the field is invalid and described by these words. */
function problemOf(field: HTMLElement) {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  const ids = (field.getAttribute('aria-describedby') ?? '').split(' ');
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').filter((text) => text !== '');
}

test("sign-up: empty fields are said under each field in the server's words, and nothing is sent", async () => {
  const user = userEvent.setup({ delay: null });
  const words = await serverWordsFor({ username: '', email: '', password: '', role: 'student' });
  const before = await server.requests('POST', '/api/users/register');
  renderAt('/signup');
  const signUp = within(await form());
  await user.click(signUp.getByRole('button', { name: 'Sign Up' }));
  expect(await signUp.findByText(words.username)).toBeDefined();
  expect(problemOf(signUp.getByLabelText('Name'))).toEqual([words.username]);
  expect(problemOf(signUp.getByLabelText('Email'))).toEqual([words.email]);
  // The problem takes the hint's place: one line under the field, not the rule said twice.
  expect(problemOf(signUp.getByLabelText('Password'))).toEqual([words.password]);
  expect(signUp.queryByText(`At least ${LIMITS.passwordMin} characters.`)).toBeNull();
  expect(signUp.getByRole('button', { name: 'Sign Up' })).toBeDefined();
  // Fixed as it is typed: the problem goes and the hint comes back, read with the field.
  await user.type(signUp.getByLabelText('Password'), TEST_PASSWORD);
  await waitFor(() => expect(signUp.queryByText(words.password)).toBeNull());
  const password = signUp.getByLabelText('Password');
  expect(password.getAttribute('aria-invalid')).toBeNull();
  expect(document.getElementById(password.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
    `At least ${LIMITS.passwordMin} characters.`,
  );
  expect(problemOf(signUp.getByLabelText('Name'))).toEqual([words.username]);
  expect(await server.requests('POST', '/api/users/register')).toBe(before);
});

test("sign-up: a password longer than the server takes is said under it; the server's refusal still shows", async () => {
  const user = userEvent.setup({ delay: null });
  const email = 'new.teacher@example.test';
  const tooLong = 'p'.repeat(LIMITS.passwordMax + 1);
  const words = await serverWordsFor({ username: 'New Teacher', email, password: tooLong, role: 'teacher' });
  const before = await server.requests('POST', '/api/users/register');
  renderAt('/signup');
  const signUp = within(await form());
  await user.type(signUp.getByLabelText('Name'), 'New Teacher');
  await user.type(signUp.getByLabelText('Email'), email);
  // Longer than the server takes: the field has no maxLength, so the contract's rule is what the user meets.
  await user.click(signUp.getByLabelText('Password'));
  await user.paste(tooLong);
  await user.click(signUp.getByRole('radio', { name: 'teacher' }));
  await user.click(signUp.getByRole('button', { name: 'Sign Up' }));
  expect(await signUp.findByText(words.password)).toBeDefined();
  expect(Object.keys(words)).toEqual(['password']);
  expect(signUp.getByLabelText('Name').getAttribute('aria-invalid')).toBeNull();
  expect(await server.requests('POST', '/api/users/register')).toBe(before);

  await user.clear(signUp.getByLabelText('Password'));
  await user.type(signUp.getByLabelText('Password'), TEST_PASSWORD);
  await user.click(signUp.getByRole('button', { name: 'Sign Up' }));
  expect(await screen.findByText('Registration successful! Please verify your email with the OTP sent.')).toBeDefined();
  expect(await server.mail.codeFor(email)).toMatch(/^\d{6}$/);
  expect(await screen.findByRole('heading', { name: 'Verify Your Email' })).toBeDefined();
  expect(await server.requests('POST', '/api/users/register')).toBe(before + 1);

  // Back from the code form: the form is as it was, and a second code this minute is the server's to refuse.
  await user.click(screen.getByRole('button', { name: 'Go back' }));
  const again = within(await form());
  expect((again.getByLabelText('Email') as HTMLInputElement).value).toBe(email);
  expect((again.getByRole('radio', { name: 'teacher' }) as HTMLInputElement).checked).toBe(true);
  await user.click(again.getByRole('button', { name: 'Sign Up' }));
  expect((again.getByRole('button', { name: 'Creating account...' }) as HTMLButtonElement).disabled).toBe(true);
  expect(
    await screen.findByText(/^Please wait \d+ seconds before asking for a new code\. Please try again\.$/),
  ).toBeDefined();
  expect(screen.queryByRole('heading', { name: 'Verify Your Email' })).toBeNull();
});
