import { afterEach, beforeAll, expect, test } from 'bun:test';
import { LIMITS } from '@contract/limits';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { clearToasts, showToasts } from '@test/toasts';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { queuedNotesOf, refreshQueuedNotes } from '../state/notes-queue';
import { CourseNotes } from './CourseNotes';

const server = realServer();
beforeAll(showToasts);
afterEach(clearToasts);
let student: Awaited<ReturnType<typeof server.signUp>>;
let courseId: string;
beforeAll(async () => {
  const teacher = await server.signUp('teacher', 'Noting Teacher');
  student = await server.signUp('student', 'Noting Student');
  const course = await server.api(
    'POST',
    '/api/courses',
    { courseName: 'Geology 101', teacherId: teacher.user._id },
    teacher.token,
  );
  courseId = course.json._id;
  const joined = await server.api(
    'POST',
    '/api/enrollments/join',
    { inviteCode: course.json.inviteCode },
    student.token,
  );
  expect(joined.status).toBeLessThan(300);
});

const notesPath = () => `/api/enrollments/${courseId}/notes`;
const notesOnServer = async () => (await server.api('GET', notesPath(), undefined, student.token)).json.notes;

test('notes longer than the server takes are kept whole, said under the field in its words, and not sent', async () => {
  const user = userEvent.setup({ delay: null });
  const tooLong = 'n'.repeat(LIMITS.notesMax + 1);
  const refusal = await server.api('PATCH', notesPath(), { notes: tooLong }, student.token);
  expect(refusal.status).toBe(400);
  const words = refusal.json.fields.notes as string;
  const before = await server.requests('PATCH', notesPath());
  signInAs(student);
  renderInApp(<CourseNotes courseId={courseId} />);
  const field = (await screen.findByRole('textbox', { name: 'Course notes' })) as HTMLTextAreaElement;
  await user.click(field);
  await user.paste(tooLong);
  // The quiet save after typing stops checks first: the words come without pressing Save Notes.
  expect(await screen.findByText(words)).toBeDefined();
  expect(field.value).toHaveLength(tooLong.length);
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(words);
  expect(screen.getByRole('status').textContent).toBe('Not saved');
  await user.click(screen.getByRole('button', { name: 'Save Notes' }));
  expect(screen.getByText(words)).toBeDefined();
  expect(await server.requests('PATCH', notesPath())).toBe(before);
  expect(await notesOnServer()).toBe('');

  await user.clear(field);
  await user.type(field, 'Granite is igneous.');
  await user.click(screen.getByRole('button', { name: 'Save Notes' }));
  expect(await screen.findByText('Note saved successfully')).toBeDefined();
  expect(field.getAttribute('aria-invalid')).toBeNull();
  expect(screen.queryByText(words)).toBeNull();
  expect(await notesOnServer()).toBe('Granite is igneous.');
  expect(await server.requests('PATCH', notesPath())).toBeGreaterThan(before);
});

test('offline, the notes say they will be kept on this device, then that they are, and nothing is sent', async () => {
  const user = userEvent.setup({ delay: null });
  signInAs(student);
  renderInApp(<CourseNotes courseId={courseId} />);
  const field = (await screen.findByRole('textbox', { name: 'Course notes' })) as HTMLTextAreaElement;
  const saved = await notesOnServer();
  const before = await server.requests('PATCH', notesPath());
  const onLine = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), 'onLine');
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  try {
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    await user.type(field, ' Basalt too.');
    expect(screen.getByRole('status').textContent).toBe(
      "Offline – your notes will be saved on this device and sync when you're back online",
    );
    await waitFor(
      () =>
        expect(screen.getByRole('status').textContent).toBe(
          'Saved on this device — will sync when you are back online',
        ),
      { timeout: 5000 },
    );
    expect(queuedNotesOf(courseId)?.text).toBe(`${saved} Basalt too.`);
    expect(await server.requests('PATCH', notesPath())).toBe(before);
    expect(await notesOnServer()).toBe(saved);
  } finally {
    // The prototype's own getter answers again; the queue is this test's only.
    delete (navigator as { onLine?: boolean }).onLine;
    if (onLine === undefined) Object.defineProperty(navigator, 'onLine', { configurable: true, value: true });
    // Back online for every listener too (the query cache's online manager heard "offline").
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    localStorage.clear();
    refreshQueuedNotes();
  }
});
