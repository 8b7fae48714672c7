import type { Account, Harness } from './harness';

type Cast = { teacher: string; otherTeacher: string; student: string; outsider: string };

export type ClassScenario = {
  /** Teaches the class (when there is one). */
  teacher: Account;
  /** A teacher too, of no class of the scenario. */
  otherTeacher: Account;
  /** Enrolled in the class (when there is one). */
  student: Account;
  /** A student enrolled nowhere. */
  outsider: Account;
  /** More enrolled students, one per name asked for. */
  classmates: Account[];
  /** The teacher's class, when a `courseName` was given. */
  course: { id: string; inviteCode: string } | undefined;
};

/**
 * The cast several route tests need: two teachers, a student and an outsider, signed up and verified at once;
 * with a `courseName`, the teacher's class with the student (and any classmates) enrolled. Every step checks its
 * answer, so a failed setup says which step failed and why instead of leaving the tests to read undefined.
 */
export async function classScenario(
  h: Pick<Harness, 'api' | 'signUp'>,
  options: { names?: Partial<Cast>; courseName?: string; classmates?: string[] } = {},
): Promise<ClassScenario> {
  const names = options.names ?? {};
  const [teacher, otherTeacher, student, outsider, ...classmates] = await Promise.all([
    h.signUp('teacher', names.teacher),
    h.signUp('teacher', names.otherTeacher),
    h.signUp('student', names.student),
    h.signUp('student', names.outsider),
    ...(options.classmates ?? []).map((name) => h.signUp('student', name)),
  ]);
  let course: ClassScenario['course'];
  if (options.courseName !== undefined) {
    course = await createClass(h, teacher, options.courseName);
    for (const who of [student, ...classmates]) await joinClass(h, who, course.inviteCode);
  }
  return { teacher, otherTeacher, student, outsider, classmates, course };
}

/** Setup: `teacher` makes a class; fails with the answer when it is refused. */
export async function createClass(h: Pick<Harness, 'api'>, teacher: Account, courseName: string) {
  const created = await h.api('POST', '/api/courses', { as: teacher.token, body: { courseName } });
  if (created.status !== 201)
    throw new Error(`setup: creating the class "${courseName}" failed (${created.status}): ${created.text}`);
  return { id: created.json._id as string, inviteCode: created.json.inviteCode as string };
}

/** Setup: `who` joins a class by its invite code; fails with the answer when it is refused. */
export async function joinClass(h: Pick<Harness, 'api'>, who: Account, inviteCode: string) {
  const joined = await h.api('POST', '/api/enrollments/join', { as: who.token, body: { inviteCode } });
  if (joined.status >= 300)
    throw new Error(`setup: ${who.user.username} could not join the class (${joined.status}): ${joined.text}`);
}
