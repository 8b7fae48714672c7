import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type Harness, startHarness } from './harness';
import { classScenario, createClass, joinClass } from './scenario';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { worker: false });
});
afterAll(() => h?.close());

test('classScenario: two teachers, the student and classmates in the class, the outsider in none', async () => {
  const cast = await classScenario(h, { courseName: 'Cast 101', classmates: ['Cal Classmate'] });
  const classesOf = async (token: string) =>
    (await h.api('GET', '/api/courses', { as: token })).json.map((course: { _id: string }) => course._id);
  expect(await classesOf(cast.teacher.token)).toEqual([cast.course?.id]);
  expect(await classesOf(cast.student.token)).toEqual([cast.course?.id]);
  expect(await classesOf(cast.classmates[0]?.token as string)).toEqual([cast.course?.id]);
  expect(await classesOf(cast.otherTeacher.token)).toEqual([]);
  expect(await classesOf(cast.outsider.token)).toEqual([]);
  expect([cast.teacher.user.role, cast.otherTeacher.user.role, cast.outsider.user.role]).toEqual([
    'teacher',
    'teacher',
    'student',
  ]);
});

test('a setup step that is refused fails at once, saying which step and why', async () => {
  const { student } = await classScenario(h);
  await expect(createClass(h, student, 'Not mine')).rejects.toThrow(
    /^setup: creating the class "Not mine" failed \(403\)/,
  );
  await expect(joinClass(h, student, 'NOSUCH')).rejects.toThrow(/could not join the class \(4\d\d\)/);
});
