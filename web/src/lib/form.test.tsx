import { expect, test } from 'bun:test';
import { answer, api } from '@api/client';
import type { Role } from '@contract/users';
import { type MessageKey, t } from '@lib/i18n';
import { useMutation } from '@tanstack/react-query';
import { renderInApp, signedOut } from '@test/render';
import { realServer } from '@test/server';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Field } from '@ui/Field';
import { type FormEvent, useState } from 'react';
import { useForm } from './form';
import { loadSchemas } from './form-check';

const server = realServer();
/** The sign-up call, written here: lib/ knows no feature. */
const register = (body: { username: string; email: string; password: string; role: Role }) =>
  answer(api.users.register.$post({ json: body }));
const users = () => loadSchemas(() => import('@contract/users'));

/** A sign-up form on the helper: `schema` is what it checks before sending, `send` what the mutation does. */
function Probe({
  schema,
  send,
}: {
  schema: typeof users;
  send: (body: Parameters<typeof register>[0]) => Promise<unknown>;
}) {
  const [values, setValues] = useState({ username: 'Form Probe', email: '', password: 'correct horse battery' });
  const form = useForm({
    schema: async () => (await schema()).registerBody,
    mutation: useMutation({ mutationFn: send }),
    send: (checked: typeof values) => ({ ...checked, role: 'student' as const }),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void form.submit(values);
  };
  return (
    <form onSubmit={onSubmit} onFocus={form.prefetch} noValidate>
      <Field
        label="Email"
        hint="Where the code goes."
        value={values.email}
        onChange={(event) => {
          const next = { ...values, email: event.target.value };
          setValues(next);
          form.recheck(next);
        }}
        problem={form.problems.email}
      />
      <button type="submit" disabled={form.busy}>
        {form.busy ? 'Sending...' : 'Send'}
      </button>
    </form>
  );
}

const emailField = () => screen.getByLabelText('Email') as HTMLInputElement;
const describedBy = (input: HTMLElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '');

test("a field's problem comes from the contract's schema, under the field, and nothing is sent", async () => {
  signedOut();
  const user = userEvent.setup({ delay: null });
  const before = await server.requests('POST', '/api/users/register');
  renderInApp(<Probe schema={users} send={register} />);
  expect(describedBy(emailField())?.textContent).toBe('Where the code goes.');
  expect(emailField().getAttribute('aria-invalid')).toBeNull();
  await user.type(emailField(), 'not an address');
  await user.click(screen.getByRole('button', { name: 'Send' }));
  const { registerBody } = await users();
  const words = registerBody
    .safeParse({ username: 'Form Probe', email: 'not an address', password: 'x'.repeat(12) })
    .error?.issues.find((issue) => issue.path[0] === 'email')?.message;
  expect(words).toBeTruthy();
  // The schema's message is a catalogue key: the field shows its words.
  await waitFor(() => expect(describedBy(emailField())?.textContent).toBe(t(words as MessageKey)));
  expect(t(words as MessageKey)).toBe('Please enter a valid email address.');
  expect(emailField().getAttribute('aria-invalid')).toBe('true');
  expect(await server.requests('POST', '/api/users/register')).toBe(before);
  // Fixed as it is typed: the problem goes and the hint comes back.
  await user.clear(emailField());
  await user.type(emailField(), 'probe@example.com');
  await waitFor(() => expect(describedBy(emailField())?.textContent).toBe('Where the code goes.'));
  expect(emailField().getAttribute('aria-invalid')).toBeNull();
});

test("a refusal's fields are said under their fields, in the server's words", async () => {
  signedOut();
  const user = userEvent.setup({ delay: null });
  // A form whose own check passes what the server refuses: the server's `fields` reach the field all the same.
  const lenient = async () =>
    ({ registerBody: (await import('zod')).z.object({}) }) as unknown as Awaited<ReturnType<typeof users>>;
  const refusal = await server.api('POST', '/api/users/register', {
    username: 'Form Probe',
    email: 'not an address',
    password: 'correct horse battery',
    role: 'student',
  });
  expect(refusal.status).toBe(400);
  expect(refusal.json.fields.email).toBeTruthy();
  renderInApp(<Probe schema={lenient} send={register} />);
  await user.type(emailField(), 'not an address');
  await user.click(screen.getByRole('button', { name: 'Send' }));
  await waitFor(() => expect(describedBy(emailField())?.textContent).toBe(refusal.json.fields.email));
  expect(emailField().getAttribute('aria-invalid')).toBe('true');
});

test("busy is the mutation's isPending: the button is disabled while it runs, and back after", async () => {
  signedOut();
  const user = userEvent.setup({ delay: null });
  let finish = () => {};
  const send = () => new Promise<void>((resolve) => (finish = resolve));
  renderInApp(<Probe schema={users} send={send} />);
  await user.type(emailField(), 'probe@example.com');
  await user.click(screen.getByRole('button', { name: 'Send' }));
  const busy = (await screen.findByRole('button', { name: 'Sending...' })) as HTMLButtonElement;
  expect(busy.disabled).toBe(true);
  finish();
  const done = (await screen.findByRole('button', { name: 'Send' })) as HTMLButtonElement;
  expect(done.disabled).toBe(false);
});
