import { beforeAll, expect, test } from 'bun:test';
import { renderInApp, signInAs } from '@test/render';
import { realServer } from '@test/server';
import { screen } from '@testing-library/react';
import type { Course } from '../api/courses';
import { SharePanel, unbrokenLineChars } from './SharePanel';

const server = realServer();
type Account = Awaited<ReturnType<typeof server.signUp>>;
let teacher: Account;
let student: Account;
let course: Course;
beforeAll(async () => {
  [teacher, student] = await Promise.all([
    server.signUp('teacher', 'Sharing Teacher'),
    server.signUp('student', 'Sharing Student'),
  ]);
  const created = await server.api('POST', '/api/courses', { courseName: 'Geology' }, teacher.token);
  expect(created.status).toBe(201);
  const joined = await server.api(
    'POST',
    '/api/enrollments/join',
    { inviteCode: created.json.inviteCode },
    student.token,
  );
  expect(joined.status).toBeLessThan(300);
  // The class as the student's page loads it (the teacher's view has the same teacher).
  course = (await server.api('GET', `/api/courses/${created.json._id}`, undefined, student.token)).json;
});

test("the class's teacher is offered New code", async () => {
  signInAs(teacher);
  renderInApp(<SharePanel course={course} />);
  expect(await screen.findByRole('button', { name: 'New code' })).toBeDefined();
});

test('a student of the class sees the code and link but no New code (nor its confirmation)', async () => {
  signInAs(student);
  renderInApp(<SharePanel course={course} />);
  expect(screen.getByTestId('invite-code').textContent).toBe(course.inviteCode);
  await screen.findByDisplayValue(new RegExp(`/join/${course.inviteCode}$`));
  expect(screen.queryByRole('button', { name: 'New code' })).toBeNull();
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('a wrapping invite link breaks before the class code, never inside it', () => {
  const host = 'http://192.168.1.23:3000/join/';
  const code = 'K7M2XQP';
  const link = `${host}${code}`;
  // Fits: one line, as wide as there is room.
  expect(unbrokenLineChars(link, code, 60)).toBeNull();
  // The host and /join/ fit a line: the code starts the next.
  expect(unbrokenLineChars(link, code, 34.6)).toBe(host.length);
  // Even the host does not fit: lines narrow until the code sits whole on the last one.
  const long = `https://classroom.a-very-long-school-name.example.org/join/${code}`;
  const chars = unbrokenLineChars(long, code, 30) as number;
  const start = long.length - code.length;
  expect(chars).toBeLessThanOrEqual(30);
  expect(Math.floor(start / chars)).toBe(Math.floor((long.length - 1) / chars));
});
