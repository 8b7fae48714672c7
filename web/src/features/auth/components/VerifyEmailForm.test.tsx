import { afterEach, beforeAll, beforeEach, expect, test } from 'bun:test';
import { renderInApp, signedOut } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { VerifyEmailForm } from './VerifyEmailForm';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);
beforeEach(signedOut);

test("a code typed away from the sign-up's browser asks for name, role and password, and those make the account", async () => {
  const user = userEvent.setup({ delay: null });
  const email = 'pre.registered@example.test';
  // Someone else signed the address up, as a teacher named Attacker: this page holds no cookie of that sign-up.
  const attacker = await server.api('POST', '/api/users/register', {
    username: 'Attacker',
    email,
    password: 'the attacker typed this',
    role: 'teacher',
  });
  expect(attacker.status).toBe(201);
  const code = await server.mail.codeFor(email);

  renderInApp(<VerifyEmailForm email={email} onBack={() => {}} />, '/verify-email');
  await user.type(screen.getByLabelText('Verification code'), code);
  await user.click(screen.getByRole('button', { name: 'Verify Email' }));
  const form = within((await screen.findByRole('button', { name: 'Set password and sign in' })).closest('form')!);
  expect(screen.getByRole('heading', { name: 'Choose your password' })).toBeDefined();
  // Nothing of the other sign-up is offered: the name starts empty, the role at student.
  const name = form.getByLabelText('Name') as HTMLInputElement;
  expect(name.value).toBe('');
  expect((form.getByRole('radio', { name: 'student' }) as HTMLInputElement).checked).toBe(true);

  await user.type(form.getByLabelText('New password', { exact: true }), 'the owner chose this');
  await user.type(form.getByLabelText('Confirm new password'), 'the owner chose this');
  await user.click(form.getByRole('button', { name: 'Set password and sign in' }));
  // Without a name nothing is sent, and the problem is said under the field.
  const problem = await form.findByText(/Name must be at least/);
  expect(name.getAttribute('aria-describedby')).toBe(problem.id);

  await user.type(name, 'Olive Owner');
  await user.click(form.getByRole('button', { name: 'Set password and sign in' }));
  expect(await screen.findByText('Email verified successfully!')).toBeDefined();

  const signedIn = await server.api('POST', '/api/users/login', { email, password: 'the owner chose this' });
  expect(signedIn.status).toBe(200);
  expect(signedIn.json.user).toMatchObject({ username: 'Olive Owner', role: 'student', teacherStatus: null });
  expect((await server.api('POST', '/api/users/login', { email, password: 'the attacker typed this' })).status).toBe(
    401,
  );
});
