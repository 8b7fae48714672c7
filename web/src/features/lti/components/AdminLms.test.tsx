import { beforeAll, expect, test } from 'bun:test';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminLms } from './AdminLms';

const server = realServer();
let account: Awaited<ReturnType<typeof server.signUp>>;
beforeAll(async () => {
  account = await server.signUp('teacher', 'Lms Registrar');
});

test('an LMS address over plain http is said wrong under its field, and nothing is sent', async () => {
  const user = userEvent.setup({ delay: null });
  signInAs(account);
  const before = await server.requests('POST', '/api/admin/lti/platforms');
  renderInApp(<AdminLms />);
  await user.type(screen.getByLabelText('Name'), 'School Moodle');
  await user.type(screen.getByLabelText('Issuer (platform ID)'), 'http://moodle.school.example');
  await user.type(screen.getByLabelText('Client ID'), 'abc123');
  await user.type(screen.getByLabelText('Authentication request URL'), 'https://moodle.school.example/auth');
  await user.type(screen.getByLabelText('Access token URL'), 'https://moodle.school.example/token');
  await user.type(screen.getByLabelText('Public key set URL'), 'https://moodle.school.example/certs');
  await user.type(screen.getByLabelText('Deployment IDs'), '1, 2');
  await user.click(screen.getByRole('button', { name: 'Register' }));
  const issuer = screen.getByLabelText('Issuer (platform ID)');
  await waitFor(() => expect(issuer.getAttribute('aria-invalid')).toBe('true'));
  const problem = document.getElementById(issuer.getAttribute('aria-describedby') ?? '');
  expect(problem?.textContent).toContain('Enter a full address starting with https://.');
  expect(screen.getByLabelText('Client ID').getAttribute('aria-invalid')).toBeNull();
  expect(await server.requests('POST', '/api/admin/lti/platforms')).toBe(before);
}, 30_000);
