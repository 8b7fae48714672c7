/**
 * bench:insight — issue 33's figures, against the real server as a child process (e2e/server.ts):
 * 1. 1,000 students watching at once, each reporting its coverage every 15 s (`POST /api/lectures/{id}/coverage`),
 *    for --seconds: the report route's p50/p99, the server process's CPU share and the rows written per minute. The
 *    same students then count a view every 15 s (`PATCH /api/lectures/{id}/view`, an existing write) as the
 *    baseline, in the same run.
 * 2. The teacher's table of a class of 500 students × 100 lectures (50,000 coverage rows): p95 of a page of 50,
 *    over every sort and filter.
 * 3. The strip of a lecture watched by 500 students: p95.
 * Accounts, classes and coverage rows are written straight into the database before the server starts (signing up
 * 1,500 people through the API would measure the sign-up limits). With --postgres the same runs on a throwaway
 * PostgreSQL cluster (scripts/test-postgres.ts), after SQLite.
 * Usage: bun run bench:insight [--students 1000] [--seconds 60] [--postgres]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../e2e/server';
import { startTestCluster } from '../scripts/test-postgres';
import { signToken } from '../src/auth/tokens';
import { openDatabase } from '../src/db/client';
import { migrateDatabase } from '../src/db/migrate';
import { rebuildCourseCoverage } from '../src/db/queries/insight';
import {
  courses,
  enrollments,
  lectureQuestions,
  lectures,
  questionAnswers,
  sessions,
  users,
  videos,
  watchCoverage,
} from '../src/db/schema';
import { encodePlays, encodeTenths, PARTS } from '../src/lib/coverage';
import { newId } from '../src/lib/ids';
import { benchDatabase } from './bench-tools';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const STUDENTS = arg('students', 1000);
const SECONDS = arg('seconds', 60);
const EVERY_MS = 15_000;
const TABLE_STUDENTS = 500;
const TABLE_LECTURES = 100;
const VIDEO_SECONDS = 3600;
const JWT_SECRET = 'bench-insight-secret-of-at-least-32-characters';
const secret = new TextEncoder().encode(JWT_SECRET);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function insertChunked<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>, size = 500) {
  for (let start = 0; start < rows.length; start += size) await write(rows.slice(start, start + size));
}

/** Accounts, classes, lectures and coverage, written before the server starts; answers what the runs need. */
export async function seed(target: { databaseFile: string; databaseUrl?: string }) {
  const handle = openDatabase(target);
  await migrateDatabase(handle);
  const { db } = handle;
  const teacherId = newId();
  await db.insert(users).values({
    id: teacherId,
    username: 'Bench Teacher',
    email: 'teacher@bench.test',
    passwordHash: '',
    role: 'teacher',
    teacherStatus: 'approved',
  });
  const students = Array.from({ length: STUDENTS }, (_, i) => ({
    id: newId(),
    username: `Student ${String(i).padStart(4, '0')}`,
    email: `s${i}@bench.test`,
    passwordHash: '',
    role: 'student' as const,
  }));
  await insertChunked(students, (chunk) => db.insert(users).values(chunk));
  const sessionRows = [teacherId, ...students.map((s) => s.id)].map((userId) => ({
    id: newId(),
    userId,
    expiresAt: Date.now() + 7 * 24 * 3600 * 1000,
  }));
  await insertChunked(sessionRows, (chunk) => db.insert(sessions).values(chunk));
  const tokens = new Map<string, string>();
  for (const row of sessionRows)
    tokens.set(row.userId, await signToken(secret, { userId: row.userId, sessionId: row.id }));

  const video = (id: string) => ({
    id,
    ownerId: teacherId,
    status: 'ready' as const,
    sourceName: 'bench.mp4',
    sourceBytes: 1,
    durationMs: VIDEO_SECONDS * 1000,
    width: 640,
    height: 360,
    hasAudio: false,
    plan: '[]',
  });
  // The live class: every student, one lecture (the reports) and a second (the views' baseline).
  const liveCourse = newId();
  await db.insert(courses).values({ id: liveCourse, courseName: 'Live', teacherId, inviteCode: 'LIVE234' });
  await insertChunked(students, (chunk) =>
    db.insert(enrollments).values(chunk.map((s) => ({ id: newId(), courseId: liveCourse, studentId: s.id }))),
  );
  const liveVideo = newId();
  await db.insert(videos).values(video(liveVideo));
  const liveLecture = newId();
  await db.insert(lectures).values({ id: liveLecture, courseId: liveCourse, nameOfTopic: 'Live', videoId: liveVideo });

  // The big class: 500 students × 100 lectures, each student with coverage of most lectures.
  const bigCourse = newId();
  await db.insert(courses).values({ id: bigCourse, courseName: 'Big', teacherId, inviteCode: 'BIG2345' });
  const big = students.slice(0, TABLE_STUDENTS);
  await insertChunked(big, (chunk) =>
    db.insert(enrollments).values(chunk.map((s) => ({ id: newId(), courseId: bigCourse, studentId: s.id }))),
  );
  const bigVideo = newId();
  await db.insert(videos).values(video(bigVideo));
  const bigLectures = Array.from({ length: TABLE_LECTURES }, (_, i) => ({
    id: newId(),
    courseId: bigCourse,
    nameOfTopic: `Lecture ${i + 1}`,
    videoId: bigVideo,
    createdAt: Date.now() - (TABLE_LECTURES - i) * 60_000,
    dueAt: i % 10 === 0 ? Date.now() - 3600_000 : null,
  }));
  await insertChunked(bigLectures, (chunk) => db.insert(lectures).values(chunk));
  let seedState = 7;
  const random = () => {
    seedState = (seedState * 1103515245 + 12345) % 2 ** 31;
    return seedState / 2 ** 31;
  };
  const rows = big.flatMap((student) =>
    bigLectures.flatMap((lecture) => {
      if (random() < 0.2) return [];
      const upTo = Math.floor(random() * (PARTS + 1));
      const plays = Array.from({ length: PARTS }, (_, part) => (part < upTo ? (random() < 0.1 ? 2 : 1) : 0));
      const tenths = plays.map((count) => count * (VIDEO_SECONDS / PARTS) * 10);
      const now = Date.now() - Math.floor(random() * 7 * 24 * 3600_000);
      return [
        {
          userId: student.id,
          lectureId: lecture.id,
          plays: encodePlays(plays),
          partial: encodeTenths(tenths),
          playedParts: upTo,
          watchedSeconds: upTo * (VIDEO_SECONDS / PARTS),
          firstAt: now,
          lastAt: now,
          completedAt: upTo >= 90 ? now : null,
          late: false,
        },
      ];
    }),
  );
  await insertChunked(rows, (chunk) => db.insert(watchCoverage).values(chunk), 200);
  await rebuildCourseCoverage(db, bigCourse);
  // Three true/false questions in every lecture, answered by each student who played past half of it: the table's
  // cells carry each student's question score.
  const questions = bigLectures.flatMap((lecture) =>
    [0.25, 0.5, 0.75].map((share) => ({
      id: newId(),
      lectureId: lecture.id,
      at: share * VIDEO_SECONDS,
      kind: 'truefalse' as const,
      prompt: 'True?',
      answerKey: 'true',
    })),
  );
  await insertChunked(questions, (chunk) => db.insert(lectureQuestions).values(chunk));
  const questionsOf = new Map<string, typeof questions>();
  for (const question of questions) {
    questionsOf.set(question.lectureId, [...(questionsOf.get(question.lectureId) ?? []), question]);
  }
  const answers = rows.flatMap((row) =>
    row.playedParts < PARTS / 2
      ? []
      : (questionsOf.get(row.lectureId) ?? []).map((question) => {
          const right = random() < 0.7;
          return {
            questionId: question.id,
            userId: row.userId,
            lectureId: row.lectureId,
            answer: String(right),
            correct: right,
            answeredAt: row.lastAt,
          };
        }),
  );
  await insertChunked(answers, (chunk) => db.insert(questionAnswers).values(chunk), 200);
  await handle.close();
  return {
    tokens,
    teacherToken: tokens.get(teacherId) as string,
    students: students.map((s) => s.id),
    liveLecture,
    bigCourse,
    stripLecture: bigLectures[0]?.id as string,
    coverageRows: rows.length,
    answerRows: answers.length,
  };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

/**
 * STUDENTS clients, each firing `request` every 15 s from a random start, for SECONDS; answers the latencies of the
 * successful requests, the failures, and the server's CPU seconds over the run.
 */
async function steadyLoad(pid: number, seeded: Seeded, request: (token: string, tick: number) => Promise<Response>) {
  const latencies: number[] = [];
  let failures = 0;
  const statuses = new Map<number, number>();
  const started = performance.now();
  const cpuBefore = cpuSeconds(pid);
  const until = started + SECONDS * 1000;
  await Promise.all(
    seeded.students.map(async (userId) => {
      const token = seeded.tokens.get(userId) as string;
      await Bun.sleep(Math.random() * EVERY_MS);
      for (let tick = 0; performance.now() < until; tick++) {
        const at = performance.now();
        try {
          const answer = await request(token, tick);
          await answer.arrayBuffer();
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.ok) latencies.push(performance.now() - at);
          else failures++;
        } catch {
          failures++;
        }
        const next = at + EVERY_MS - performance.now();
        if (performance.now() + next >= until) break;
        await Bun.sleep(Math.max(0, next));
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  return { latencies, failures, statuses, wall, cpu };
}

async function timed(count: number, concurrency: number, request: (i: number) => Promise<Response>) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const at = performance.now();
        const answer = await request(i);
        const body = await answer.text();
        if (!answer.ok) {
          // The first refusal is printed: a bench that fails its requests says why.
          if (failed === 0) console.log(`  first failure: ${answer.status} ${body.slice(0, 300)}`);
          failed++;
        }
        latencies.push(performance.now() - at);
      }
    }),
  );
  return { latencies, failed };
}

async function runOn(engine: 'SQLite' | 'PostgreSQL', databaseUrl?: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-bench-insight-'));
  const database = await benchDatabase(databaseUrl);
  try {
    const seedStart = performance.now();
    const seeded = await seed({
      databaseFile: join(dataDir, 'classroom.sqlite'),
      databaseUrl: database.env.DATABASE_URL,
    });
    console.log(
      `\n== ${engine}: seeded ${STUDENTS} students, ${seeded.coverageRows} coverage rows, ${seeded.answerRows} answers in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
    );
    const server = await startServer({
      dataDir,
      env: { ...database.env, JWT_SECRET, LOG_LEVEL: 'info', TEACHER_SIGNUP: 'open', JOBS_IN_PROCESS: 'false' },
    });
    try {
      const base = server.baseUrl;
      const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
      const cores = cpus().length;
      const report = (label: string, run: Awaited<ReturnType<typeof steadyLoad>>, rowsPerRequest?: number) => {
        const perMinute = (run.latencies.length / run.wall) * 60;
        console.log(
          `${label}: ${run.latencies.length} ok, ${run.failures} failed (${[...run.statuses].map(([s, n]) => `${s}×${n}`).join(' ')}) in ${run.wall.toFixed(0)} s; ` +
            `p50 ${ms(percentile(run.latencies, 50))}, p99 ${ms(percentile(run.latencies, 99))}; ` +
            `server CPU ${((run.cpu / run.wall) * 100).toFixed(1)}% of one core (${((run.cpu / run.wall / cores) * 100).toFixed(2)}% of ${cores}); ` +
            `${perMinute.toFixed(0)} requests/min${rowsPerRequest ? ` = ${(perMinute * rowsPerRequest).toFixed(0)} rows written/min` : ''}`,
        );
      };
      const coverage = await steadyLoad(server.pid, seeded, (token, tick) =>
        fetch(`${base}/api/lectures/${seeded.liveLecture}/coverage`, {
          method: 'POST',
          headers: headers(token),
          body: JSON.stringify({ ranges: [[tick * 15, tick * 15 + 15]], rate: 1 }),
        }),
      );
      // Each report writes its coverage row and the class's totals row.
      report(`coverage reports (${STUDENTS} students / 15 s)`, coverage, 2);
      const views = await steadyLoad(server.pid, seeded, (token) =>
        fetch(`${base}/api/lectures/${seeded.liveLecture}/view`, { method: 'PATCH', headers: headers(token) }),
      );
      report(`baseline PATCH …/view (${STUDENTS} students / 15 s)`, views);

      const sorts = ['name', 'percent', 'last'];
      const filters = ['all', 'not-started', 'in-progress', 'done', 'overdue'];
      const table = await timed(300, 4, (i) =>
        fetch(
          `${base}/api/courses/${seeded.bigCourse}/insight?page=${(i % 10) + 1}&size=50&sort=${sorts[i % 3]}&dir=${i % 2 ? 'asc' : 'desc'}&filter=${filters[i % 5]}`,
          { headers: headers(seeded.teacherToken) },
        ),
      );
      console.log(
        `teacher's table ${TABLE_STUDENTS} × ${TABLE_LECTURES}, page of 50 (300 requests, 4 at once): ` +
          `p50 ${ms(percentile(table.latencies, 50))}, p95 ${ms(percentile(table.latencies, 95))}, ${table.failed} failed`,
      );
      const alone = await timed(200, 1, (i) =>
        fetch(
          `${base}/api/courses/${seeded.bigCourse}/insight?page=${(i % 10) + 1}&size=50&sort=${sorts[i % 3]}&dir=${i % 2 ? 'asc' : 'desc'}&filter=${filters[i % 5]}`,
          { headers: headers(seeded.teacherToken) },
        ),
      );
      console.log(
        `teacher's table, one teacher (200 requests, one at a time): ` +
          `p50 ${ms(percentile(alone.latencies, 50))}, p95 ${ms(percentile(alone.latencies, 95))}, ${alone.failed} failed`,
      );
      const strip = await timed(300, 4, () =>
        fetch(`${base}/api/lectures/${seeded.stripLecture}/insight/strip`, { headers: headers(seeded.teacherToken) }),
      );
      console.log(
        `strip of a lecture watched by ${TABLE_STUDENTS} (300 requests, 4 at once): ` +
          `p50 ${ms(percentile(strip.latencies, 50))}, p95 ${ms(percentile(strip.latencies, 95))}, ${strip.failed} failed`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  console.log(
    `bench:insight — ${cpus().length} cores, load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  await runOn('SQLite');
  if (process.argv.includes('--postgres')) {
    const cluster = await startTestCluster();
    try {
      await runOn('PostgreSQL', cluster.url);
    } finally {
      cluster.stop();
    }
  }
  console.log(
    `load average after: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
}
