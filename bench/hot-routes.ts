/**
 * What bench:api and bench:engines share: the class they load (50 lectures with a video, 500 comments on one, 50
 * on another, a student's notes), the hot routes on it, and autocannon in a Node process of its own.
 */
import { join } from 'node:path';
import { createAccount, type RunningServer } from '../e2e/server';
import { makeClip } from '../src/test/fixtures';

/** The servers' secret in these benches, so a peer can check their tokens as they do. */
export const BENCH_JWT_SECRET = 'bench-secret-of-at-least-32-characters!';

/** Starts a peer server that prints its port on its first line; the rest of its output (its log) is drained. */
export async function startPeer(command: string[], prefix: string[] = []) {
  const child = Bun.spawn([...prefix, ...command], {
    stdout: 'pipe',
    env: { ...process.env, JWT_SECRET: BENCH_JWT_SECRET },
  });
  const reader = child.stdout.getReader();
  const port = new TextDecoder()
    .decode((await reader.read()).value)
    .trim()
    .split('\n')[0];
  (async () => {
    while (!(await reader.read()).done);
  })();
  return { child, base: `http://127.0.0.1:${port}` };
}

export type Write = { method: string; body?: string };
export type Cannon = { rps: number; p99: number; bad: number };

/**
 * autocannon in its own process: requests per second and p99 latency of one URL (a GET, or a write with a body).
 * `prefix` runs it under another command (`taskset -c 0`).
 */
export async function autocannon(
  url: string,
  token: string,
  options: { seconds: number; connections?: number; write?: Write; prefix?: string[] },
): Promise<Cannon> {
  const { write } = options;
  const child = Bun.spawn(
    [
      ...(options.prefix ?? []),
      'node',
      join(import.meta.dir, '..', 'node_modules', 'autocannon', 'autocannon.js'),
      '-j',
      '-c',
      String(options.connections ?? 50),
      '-d',
      String(options.seconds),
      '-H',
      `authorization=Bearer ${token}`,
      ...(write ? ['-m', write.method] : []),
      ...(write?.body ? ['-H', 'content-type=application/json', '-b', write.body] : []),
      url,
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const out = await new Response(child.stdout).text();
  await child.exited;
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p99: number };
    non2xx: number;
    errors: number;
  };
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

/** A class with 50 lectures showing one uploaded clip, `studentCount` students, 550 comments and a student's notes. */
export async function seedClass(
  server: RunningServer,
  mail: { codeFor: (to: string) => Promise<string> },
  work: string,
  studentCount: number,
) {
  const teacher = await createAccount(server, mail, 'Bench Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Load 101' });
  const clip = await makeClip(work, { width: 640, height: 360, seconds: 12 });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip), 'clip.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') await Bun.sleep(200);
  const lectureIds: string[] = [];
  for (let i = 0; i < 50; i++) {
    const lecture = await teacher.api('POST', '/api/lectures', {
      courseId: course._id,
      nameOfTopic: `Lecture ${i + 1}`,
      videoLink: uploaded.masterPlaylist,
    });
    lectureIds.push(lecture._id);
  }
  const students: Awaited<ReturnType<typeof createAccount>>[] = [];
  for (let i = 0; i < studentCount; i++) {
    const student = await createAccount(server, mail, `Student ${i}`, 'student');
    await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
    students.push(student);
  }
  const watched = lectureIds[49] as string;
  const fifty = lectureIds[48] as string;
  const commenter = (i: number) => students[i % students.length] as (typeof students)[number];
  for (let i = 0; i < 50; i++) {
    await commenter(i).api('POST', `/api/lectures/${fifty}/comments`, { text: `Comment ${i}` });
  }
  await commenter(0).api('PATCH', `/api/enrollments/${course._id}/notes`, { notes: 'Notes of a student. '.repeat(40) });
  for (let i = 0; i < 500; i++) {
    await commenter(i).api('POST', `/api/lectures/${watched}/comments`, { text: `Comment number ${i}` });
  }
  return { teacher, course, uploaded, lectureIds, students, watched, fifty };
}

/**
 * The hot routes on a seeded class: label, path, and the write for the two that write. The first, the liveness
 * answer, does no work in any server: its server / bare peer ratio is the most a route can reach. Likes are not loaded alone:
 * a like twice is refused (409), and each like is the view's transaction with another table.
 */
export function hotRoutes(seed: {
  course: { _id: string };
  watched: string;
  fifty: string;
}): [string, string, Write?][] {
  return [
    // No work at all: what the framework and the middlewares every answer passes cost alone (no token, no table).
    ['no work (liveness)', '/api/health/live'],
    ['current user', '/api/users'],
    ['class list', '/api/courses'],
    ['lecture list of 50', `/api/lectures/course/${seed.course._id}`],
    ['comments of 50', `/api/lectures/${seed.fifty}/comments`],
    ['notes', `/api/enrollments/${seed.course._id}/notes`],
    [
      'progress (a write)',
      `/api/lectures/${seed.watched}/progress`,
      { method: 'PUT', body: '{"position":42,"duration":600}' },
    ],
    ['view (a write)', `/api/lectures/${seed.watched}/view`, { method: 'PATCH' }],
  ];
}
