import { afterEach, beforeAll, expect, mock, test } from 'bun:test';
import { LIMITS } from '@contract/limits';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CreateClassModal } from './CreateClassModal';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);

let teacher: Awaited<ReturnType<typeof server.signUp>>;
let student: typeof teacher;
beforeAll(async () => {
  [teacher, student] = await Promise.all([
    server.signUp('teacher', 'Class Teacher'),
    server.signUp('student', 'Class Student'),
  ]);
});

function openAs(role: 'teacher' | 'student') {
  const account = role === 'teacher' ? teacher : student;
  signInAs(account);
  const onClose = mock(() => {});
  renderInApp(<CreateClassModal open onClose={onClose} />);
  return { account, onClose, dialog: screen.getByRole('dialog', { name: 'Create New Class' }) };
}

const classesOf = async (token: string) =>
  ((await server.api('GET', '/api/courses', undefined, token)).json as { courseName: string }[]).map(
    (course) => course.courseName,
  );

test('the class name is required and limited as the server limits it; the semester takes the shared range', () => {
  openAs('teacher');
  const name = screen.getByLabelText('Class name') as HTMLInputElement;
  expect(name.required).toBe(true);
  expect(name.maxLength).toBe(LIMITS.courseNameMax);
  const semester = screen.getByLabelText('Semester') as HTMLInputElement;
  expect(semester.required).toBe(false);
  expect(Number(semester.min)).toBe(LIMITS.semesterMin);
  expect(Number(semester.max)).toBe(LIMITS.semesterMax);
});

test('an empty name or a semester out of range stops the form before anything is sent', async () => {
  const user = userEvent.setup({ delay: null });
  const { account, onClose } = openAs('teacher');
  await user.click(screen.getByRole('button', { name: 'Create Class' }));
  expect((screen.getByLabelText('Class name') as HTMLInputElement).validity.valueMissing).toBe(true);
  await user.type(screen.getByLabelText('Class name'), 'Physics 101');
  await user.type(screen.getByLabelText('Semester'), String(LIMITS.semesterMax + 1));
  await user.click(screen.getByRole('button', { name: 'Create Class' }));
  expect((screen.getByLabelText('Semester') as HTMLInputElement).validity.rangeOverflow).toBe(true);
  expect(onClose).not.toHaveBeenCalled();
  expect(await classesOf(account.token)).toEqual([]);
});

test('creating says "Creating..." on a disabled button, then closes and names the new class', async () => {
  const user = userEvent.setup({ delay: null });
  const { account, onClose } = openAs('teacher');
  await user.type(screen.getByLabelText('Class name'), 'Physics 101');
  await user.type(screen.getByLabelText('Semester'), '3');
  await user.click(screen.getByRole('button', { name: 'Create Class' }));
  expect((screen.getByRole('button', { name: 'Creating...' }) as HTMLButtonElement).disabled).toBe(true);
  expect(await screen.findByText('Physics 101 is ready. Share it with your students.')).toBeDefined();
  expect(onClose).toHaveBeenCalled();
  expect(await classesOf(account.token)).toEqual(['Physics 101']);
});

test("the server's refusal is shown in its words and the form stays open", async () => {
  const user = userEvent.setup({ delay: null });
  // Students do not create classes: the server says so.
  const { account, onClose } = openAs('student');
  const refusal = await server.api(
    'POST',
    '/api/courses',
    { courseName: 'Not Mine', teacherId: account.user._id, semester: null },
    account.token,
  );
  expect(refusal.status).toBeGreaterThanOrEqual(400);
  await user.type(screen.getByLabelText('Class name'), 'Not Mine');
  await user.click(screen.getByRole('button', { name: 'Create Class' }));
  expect(await screen.findByText(refusal.json.error)).toBeDefined();
  await waitFor(() => expect(screen.getByRole('button', { name: 'Create Class' })).toBeDefined());
  expect(onClose).not.toHaveBeenCalled();
  expect((screen.getByLabelText('Class name') as HTMLInputElement).value).toBe('Not Mine');
});
