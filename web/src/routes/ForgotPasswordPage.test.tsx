import { afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import { LIMITS } from '@contract/limits';
import { sessionAtom } from '@lib/session';
import { appStore } from '@lib/store';
import { renderInApp, signedOut } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { ForgotPasswordPage } from './ForgotPasswordPage';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);
beforeEach(signedOut);

test('a new password by the mailed code: a mismatch and a wrong code are said in the form, the right one signs in', async () => {
  const user = userEvent.setup({ delay: null });
  const account = await server.signUp('student', 'Forgetful Student');
  renderInApp(
    <Routes>
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
    </Routes>,
    '/forgot-password',
  );
  await user.type(await screen.findByLabelText('Email'), account.email);
  await user.click(screen.getByRole('button', { name: 'Send code' }));
  expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeDefined();
  // The sign-up code was mail 1; the reset code is mail 2.
  const code = await server.mail.nthCode(account.email, 2);
  const form = within(screen.getByRole('button', { name: 'Set new password' }).closest('form')!);
  expect((form.getByLabelText('Code from the email') as HTMLInputElement).required).toBe(true);
  for (const label of ['New password', 'Confirm new password']) {
    expect((form.getByLabelText(label) as HTMLInputElement).minLength).toBe(LIMITS.passwordMin);
  }

  await user.type(form.getByLabelText('Code from the email'), code);
  await user.type(form.getByLabelText('New password'), 'my new long secret');
  await user.type(form.getByLabelText('Confirm new password'), 'my new long secreT');
  await user.click(form.getByRole('button', { name: 'Set new password' }));
  expect(form.getByRole('alert').textContent).toBe("The passwords don't match.");

  // A wrong code: the server's refusal, in the form.
  const wrong = code === '000000' ? '111111' : '000000';
  const answer = await server.api('POST', '/api/users/reset-password', {
    email: account.email,
    otp: wrong,
    newPassword: 'my new long secret',
  });
  expect(answer.status).toBe(400);
  await user.clear(form.getByLabelText('Code from the email'));
  await user.type(form.getByLabelText('Code from the email'), wrong);
  await user.clear(form.getByLabelText('Confirm new password'));
  await user.type(form.getByLabelText('Confirm new password'), 'my new long secret');
  await user.click(form.getByRole('button', { name: 'Set new password' }));
  expect((form.getByRole('button', { name: 'Saving...' }) as HTMLButtonElement).disabled).toBe(true);
  expect((await form.findByRole('alert')).textContent).toBe(answer.json.error);
  expect(appStore.get(sessionAtom).status).not.toBe('authenticated');

  await user.clear(form.getByLabelText('Code from the email'));
  await user.type(form.getByLabelText('Code from the email'), code);
  await user.click(form.getByRole('button', { name: 'Set new password' }));
  expect(await screen.findByText('Your password is changed. Every other device was signed out.')).toBeDefined();
  // The toast comes first, then the page signs in with the answer's token.
  await waitFor(() => expect(appStore.get(sessionAtom).user?.email).toBe(account.email));
  const login = await server.api('POST', '/api/users/login', { email: account.email, password: 'my new long secret' });
  expect(login.status).toBe(200);
});
