import { beforeAll, expect, test } from 'bun:test';
import { onlineManager } from '@tanstack/react-query';
import { classWithTopic } from '@test/lecture';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Comments } from './Comments';

const server = realServer();
type Account = Awaited<ReturnType<typeof server.signUp>>;
let teacher: Account;
let student: Account;
let lectureId: string;
let courseId: string;
let inviteCode: string;
beforeAll(async () => {
  [teacher, student] = await Promise.all([
    server.signUp('teacher', 'Commenting Teacher'),
    server.signUp('student', 'Commenting Student'),
  ]);
  const made = await classWithTopic(server, teacher, 'Astronomy 101', 'Comets');
  lectureId = made.lectureId;
  courseId = made.course._id;
  inviteCode = made.course.inviteCode;
  const joined = await server.api(
    'POST',
    '/api/enrollments/join',
    { inviteCode: made.course.inviteCode },
    student.token,
  );
  expect(joined.status).toBeLessThan(300);
});

const commentsPath = () => `/api/lectures/${lectureId}/comments`;
const commentsOnServer = async () =>
  (await server.api('GET', commentsPath(), undefined, teacher.token)).json as { text: string; parentId?: string }[];

/** The words the server refuses this comment with, for its text (its 400's `fields`). */
async function serverWordsFor(body: { text: string; parentId?: string }) {
  const refusal = await server.api('POST', commentsPath(), body, teacher.token);
  expect(refusal.status).toBe(400);
  return refusal.json.fields.text as string;
}

/** The words the comment field is described by, once it is invalid. */
function problemOf(field: HTMLElement) {
  expect(field.getAttribute('aria-invalid')).toBe('true');
  return document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent;
}

test("a comment with hidden characters is said under the field in the server's words, and nothing is sent", async () => {
  const user = userEvent.setup({ delay: null });
  const hidden = 'See 1:05 \u202Eworks backwards';
  const words = await serverWordsFor({ text: hidden });
  const before = await server.requests('POST', commentsPath());
  signInAs(teacher);
  renderInApp(<Comments lectureId={lectureId} isTeacher />);
  const field = await screen.findByRole('textbox', { name: 'Add a comment' });
  await user.click(field);
  await user.paste(hidden);
  await user.click(screen.getByRole('button', { name: 'Add Comment' }));
  expect(await screen.findByText(words)).toBeDefined();
  expect(problemOf(field)).toBe(words);
  expect((field as HTMLTextAreaElement).value).toBe(hidden);
  expect(await server.requests('POST', commentsPath())).toBe(before);
  expect(await commentsOnServer()).toEqual([]);
});

test("a blank reply is said under the field in the server's words and not sent; a good one then goes", async () => {
  const user = userEvent.setup({ delay: null });
  const asked = await server.api('POST', commentsPath(), { text: 'Why do comets have tails?' }, student.token);
  expect(asked.status).toBe(201);
  // Only a zero-width space: not white space to the browser, blank to the server once it is removed.
  const blank = '\u200B';
  const words = await serverWordsFor({ text: blank, parentId: asked.json._id });
  const before = await server.requests('POST', commentsPath());
  signInAs(teacher);
  renderInApp(<Comments lectureId={lectureId} isTeacher />);
  await user.click(await screen.findByRole('button', { name: 'Reply to Commenting Student' }));
  const field = screen.getByRole('textbox', { name: 'Reply to Commenting Student' });
  await user.paste(blank);
  await user.click(screen.getByRole('button', { name: 'Reply' }));
  expect(await screen.findByText(words)).toBeDefined();
  expect(problemOf(field)).toBe(words);
  expect(await server.requests('POST', commentsPath())).toBe(before);
  expect(await commentsOnServer()).toHaveLength(1);

  await user.clear(field);
  await user.type(field, 'The solar wind pushes them.');
  await user.click(screen.getByRole('button', { name: 'Reply' }));
  const replies = await screen.findByRole('list', { name: 'Replies to Commenting Student' });
  expect(within(replies).getByText('The solar wind pushes them.')).toBeDefined();
  expect(field.getAttribute('aria-invalid')).toBeNull();
  expect(await server.requests('POST', commentsPath())).toBe(before + 1);
  expect((await commentsOnServer()).find((comment) => comment.parentId === asked.json._id)?.text).toBe(
    'The solar wind pushes them.',
  );
});

test('offline, a comment says it will post when the connection is back, keeps its text, and posts then', async () => {
  const user = userEvent.setup({ delay: null });
  const before = await server.requests('POST', commentsPath());
  signInAs(student);
  renderInApp(<Comments lectureId={lectureId} courseId={courseId} isTeacher={false} />);
  const field = (await screen.findByRole('textbox', { name: 'Add a comment' })) as HTMLTextAreaElement;
  await user.type(field, 'Written on the bus.');
  act(() => onlineManager.setOnline(false));
  try {
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect((await screen.findByRole('status')).textContent).toBe(
      "Offline – your comment will post when you're back online. Keep this page open.",
    );
    expect(screen.getByRole('button', { name: 'Waiting for connection...' })).toBeDefined();
    expect(field.value).toBe('Written on the bus.');
    expect(await server.requests('POST', commentsPath())).toBe(before);
  } finally {
    act(() => onlineManager.setOnline(true));
  }
  expect(await screen.findByText('Written on the bus.', { selector: 'p' })).toBeDefined();
  expect(field.value).toBe('');
  expect(screen.queryByRole('status')).toBeNull();
  expect(await server.requests('POST', commentsPath())).toBe(before + 1);
});

test('a pupil taken out of the class while it is open is told so, keeps the text, and nothing is posted', async () => {
  const user = userEvent.setup({ delay: null });
  const removed = await server.signUp('student', 'Removed Student');
  const joined = await server.api('POST', '/api/enrollments/join', { inviteCode }, removed.token);
  expect(joined.status).toBeLessThan(300);
  signInAs(removed);
  renderInApp(<Comments lectureId={lectureId} courseId={courseId} isTeacher={false} />);
  const field = (await screen.findByRole('textbox', { name: 'Add a comment' })) as HTMLTextAreaElement;
  const out = await server.api(
    'DELETE',
    `/api/courses/${courseId}/students/${removed.user._id}`,
    undefined,
    teacher.token,
  );
  expect(out.status).toBe(200);
  const before = await commentsOnServer();
  await user.type(field, 'Is this on the test?');
  await user.click(screen.getByRole('button', { name: 'Add Comment' }));
  expect((await screen.findByRole('alert')).textContent).toBe(
    'You are no longer in this class, so your comment could not be posted.',
  );
  expect(field.value).toBe('Is this on the test?');
  expect(await commentsOnServer()).toEqual(before);
});
