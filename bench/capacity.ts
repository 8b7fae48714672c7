/**
 * bench:capacity — how many students this machine serves, and the tail they see.
 *
 * Each simulated student has its own account, enrollment and session (written into the database as sign-up and
 * login write them) and does what the course page does: opens the page (the page itself, the current user, the
 * class, the lecture list, the comments and the notes), reads the master playlist once, then fetches the next 720p
 * segment through the signed folder every step, saves its progress every ~10 s, likes the lecture about once a
 * minute and comments about every two minutes, reopening the page every ~30 s. Students start at random moments.
 *
 * Two modes, each run for every shape given:
 * - `--students N` (a class): N students for `--seconds` (60), with `--think` seconds between steps (the
 *   segment length, 4 s: a player keeping its buffer; smaller is a denser load). Prints requests, p50/p99/max
 *   overall and p99 per kind, so a tail that every kind shares (a stalled process) tells itself apart from one
 *   kind's slow query. The issue's goal: p99 < 50 ms for 200 students, on SQLite and on PostgreSQL.
 * - without it (capacity): the number of students doubles from 50 until p99 passes 200 ms or a request fails,
 *   idle and then while a 1080p video transcodes.
 *
 * Shapes (`--shape`, repeatable; default `box`):
 * - `box`: one `classroom` process (server and worker) on SQLite and the local disk: the one-box school.
 * - `pg`: the same process on PostgreSQL (a throwaway cluster started here, as the tests do) and the local disk.
 * - `cluster`: two `classroom serve` processes and one `classroom worker` on PostgreSQL and S3 (s3rver, started
 *   here); students are spread over the two servers, as a load balancer would. s3rver is a JavaScript server on
 *   the same two cores, so it, not the app, bounds segment reads in this shape.
 * `--root <checkout>` (repeatable) runs another checkout's server in the same invocation (the baseline).
 * The load runs in this process; every server, PostgreSQL and s3rver are processes of their own on the same cores.
 * Usage: bun run bench:capacity [--shape box|pg|cluster ...] [--students 200] [--seconds 60] [--think 4]
 *        [--transcode] [--step-seconds 20] [--max 6400] [--root /path/to/checkout ...]
 */
import { Database } from 'bun:sqlite';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { createAccount, type RunningServer, startServer, root as thisRoot } from '../e2e/server';
import { startTestCluster, type TestCluster } from '../scripts/test-postgres';
import { signToken, TOKEN_LIFETIME_SECONDS } from '../src/auth/tokens';
import { SEGMENT_SECONDS } from '../src/media/ladder';
import { startS3Server } from '../src/storage/test-s3-server';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const many = (name: string) => process.argv.flatMap((value, i) => (process.argv[i - 1] === `--${name}` ? [value] : []));
const shapes = (many('shape').length ? many('shape') : ['box']) as Shape[];
const roots = many('root').length ? many('root') : [thisRoot];
const classSize = arg('students', 0);
const seconds = arg('seconds', 60);
const think = arg('think', SEGMENT_SECONDS);
const stepSeconds = arg('step-seconds', 20);
const maxStudents = arg('max', 6400);
const withTranscode = process.argv.includes('--transcode');
const P99_BUDGET_MS = 200;
type Shape = 'box' | 'pg' | 'cluster';
for (const shape of shapes) {
  if (!['box', 'pg', 'cluster'].includes(shape)) throw new Error(`--shape ${shape}: box, pg or cluster`);
}

const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model}, load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
console.log(
  `bench:capacity — ${classSize ? `${classSize} students for ${seconds} s, a step every ${think} s` : `doubling, ${stepSeconds} s per step`}; machine: ${machine()}`,
);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-capacity-'));
const clip = await makeClip(work, { width: 1280, height: 720, seconds: 60 });
const longClip = await makeClip(work, { width: 1920, height: 1080, seconds: 480, name: 'long.mp4' });

type Sample = { kind: string; ms: number; ok: boolean; bytes: number; at: number };
const pick = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;

/** The servers of one shape, started from one checkout, with a teacher, a class and a ready lecture. */
async function deploy(shape: Shape, root: string) {
  const mail = await startMailCapture();
  const jwtSecret = randomBytes(32).toString('hex');
  const postgres: TestCluster | undefined = shape === 'box' ? undefined : await startTestCluster();
  const s3 = shape === 'cluster' ? await startS3Server() : undefined;
  const servers: RunningServer[] = [];
  const dirs: string[] = [];
  const main = join(root, 'src', 'main.ts');
  const env: Record<string, string> = { SMTP_URL: mail.url, JWT_SECRET: jwtSecret, ...s3?.env() };
  if (postgres) env.DATABASE_URL = postgres.url;
  const stop = async () => {
    for (const server of servers) await server.stop().catch(() => {});
    await mail.close();
    postgres?.stop();
    await s3?.close?.();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (shape === 'cluster') {
      const dataDir = () => {
        const dir = mkdtempSync(join(tmpdir(), 'classroom-bench-capacity-node-'));
        dirs.push(dir);
        return dir;
      };
      const migrate = Bun.spawn(['bun', main, 'migrate'], {
        cwd: root,
        env: { ...process.env, ...env, DATA_DIR: dataDir() },
      });
      if ((await migrate.exited) !== 0) throw new Error('classroom migrate failed');
      for (let i = 0; i < 2; i++) {
        servers.push(await startServer({ command: ['bun', main, 'serve'], cwd: root, env, dataDir: dataDir() }));
      }
      // The worker listens on no port: started as a plain child, stopped with the rest.
      const worker = Bun.spawn(['bun', main, 'worker'], {
        cwd: root,
        env: { ...process.env, ...env, DATA_DIR: dataDir() },
        stdout: 'ignore',
        stderr: 'ignore',
      });
      servers.push({
        baseUrl: '',
        pid: worker.pid,
        dataDir: '',
        logs: () => '',
        kill: async () => void worker.kill('SIGKILL'),
        stop: async () => {
          worker.kill('SIGTERM');
          await worker.exited;
        },
      });
    } else {
      servers.push(await startServer({ command: ['bun', main], cwd: root, env }));
    }
    const front = servers.filter((server) => server.baseUrl);
    const teacher = await createAccount(front[0], mail, 'Capacity Teacher', 'teacher');
    const course = await teacher.api('POST', '/api/courses', { courseName: 'Capacity' });
    const upload = async (file: string, name: string) => {
      const form = new FormData();
      form.append('uploadedFile', Bun.file(file));
      form.append('courseId', course._id);
      form.append('nameOfTopic', name);
      return teacher.api('POST', '/api/upload', form);
    };
    const uploaded = await upload(clip, 'The lecture');
    while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') await Bun.sleep(300);

    // Students: signing up hundreds through the API would spend minutes hashing passwords, so their accounts,
    // enrollments and sessions are written as sign-up and login write them, with the token login hands out.
    const sqlite = postgres ? undefined : new Database(join(front[0].dataDir, 'classroom.sqlite'));
    sqlite?.exec('PRAGMA busy_timeout = 5000');
    const pg = postgres ? new SQL(postgres.url, { max: 1 }) : undefined;
    const secret = new TextEncoder().encode(jwtSecret);
    const tokens: string[] = [];
    const ensureStudents = async (count: number) => {
      const rows: [string, string, string][] = [];
      while (tokens.length + rows.length < count) {
        const n = tokens.length + rows.length;
        rows.push([`capacity-student-${n}`, `capacity-session-${n}`, `capacity-enrollment-${n}`]);
      }
      const expires = Date.now() + TOKEN_LIFETIME_SECONDS * 1000;
      const statements = (userId: string, sessionId: string, enrollmentId: string, n: number) =>
        [
          [
            "INSERT INTO users (id, username, email, password_hash, role, email_verified_at) VALUES (?, ?, ?, 'x', 'student', ?)",
            [userId, `Student ${n}`, `student${n}@capacity.test`, Date.now()],
          ],
          ['INSERT INTO enrollments (id, course_id, student_id) VALUES (?, ?, ?)', [enrollmentId, course._id, userId]],
          ['INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)', [sessionId, userId, expires]],
        ] as const;
      for (const [userId, sessionId, enrollmentId] of rows) {
        const n = Number(userId.split('-').at(-1));
        for (const [text, values] of statements(userId, sessionId, enrollmentId, n)) {
          if (sqlite) sqlite.query(text).run(...values);
          else {
            let index = 0;
            await pg?.unsafe(
              text.replace(/\?/g, () => `$${++index}`),
              [...values],
            );
          }
        }
        tokens.push(await signToken(secret, { userId, sessionId }));
      }
    };
    return {
      front,
      teacher,
      course,
      lectureId: uploaded.lectureId as string,
      videoId: uploaded.videoId as string,
      upload,
      ensureStudents,
      tokens,
      async stop() {
        sqlite?.close();
        await pg?.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

type Deployment = Awaited<ReturnType<typeof deploy>>;

/** `students` students on their loop until `deadline`; every request's time and kind. */
async function load(d: Deployment, students: number, runSeconds: number, pace: number) {
  await d.ensureStudents(students);
  const samples: Sample[] = [];
  const begun = performance.now();
  const deadline = begun + runSeconds * 1000;
  const timed = async (kind: string, url: string, token: string, init: RequestInit = {}) => {
    const started = performance.now();
    let ok = false;
    let bytes = 0;
    let body = '';
    try {
      const response = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      if (kind === 'master') body = await response.text();
      else bytes = (await response.arrayBuffer()).byteLength;
      ok = response.ok;
    } catch {}
    if (performance.now() < deadline)
      samples.push({ kind, ms: performance.now() - started, ok, bytes, at: started - begun });
    return body;
  };
  const stepsPer = (everySeconds: number) => Math.max(1, Math.round(everySeconds / pace));
  await Promise.all(
    d.tokens.slice(0, students).map(async (token, i) => {
      const base = d.front[i % d.front.length].baseUrl;
      const lecture = `${base}/api/lectures/${d.lectureId}`;
      await Bun.sleep(Math.random() * Math.min(pace, runSeconds / 4) * 1000);
      let step = Math.floor(Math.random() * stepsPer(30));
      let segments: string[] = [];
      let segment = i;
      const openPage = async () => {
        await Promise.all([
          timed('page', `${base}/classroom/${d.course._id}?lecture=${d.lectureId}`, token),
          timed('current user', `${base}/api/users`, token),
          timed('class', `${base}/api/courses/${d.course._id}`, token),
          timed('lecture list', `${base}/api/lectures/course/${d.course._id}`, token),
          timed('comments', `${lecture}/comments`, token),
          timed('notes', `${base}/api/enrollments/${d.course._id}/notes`, token),
        ]);
        // The player: the master playlist once per page, then the signed folder it hands out.
        const master = await timed('master', `${base}/media/videos/${d.videoId}/master.m3u8`, token);
        const folder = /^(\d+\.[A-Za-z0-9_-]{22})\//m.exec(master)?.[1];
        if (folder && !segments.length) {
          const playlist = await fetch(`${base}/media/videos/${d.videoId}/${folder}/2/index.m3u8`);
          const names = (await playlist.text()).split('\n').filter((line) => line.endsWith('.m4s'));
          segments = names.map((name) => `${base}/media/videos/${d.videoId}/${folder}/2/${name}`);
        }
      };
      await openPage();
      while (performance.now() < deadline) {
        const work: Promise<unknown>[] = [];
        if (segments.length) work.push(timed('segment', segments[segment++ % segments.length], token));
        if (step % stepsPer(10) === 0) {
          work.push(
            timed('progress', `${lecture}/progress`, token, {
              method: 'PUT',
              body: JSON.stringify({ position: (segment * SEGMENT_SECONDS) % 60, duration: 60 }),
            }),
          );
        }
        if (step % stepsPer(60) === stepsPer(60) - 1)
          work.push(timed('like', `${lecture}/like`, token, { method: 'PATCH' }));
        if (step % stepsPer(120) === 1) {
          work.push(
            timed('comment', `${lecture}/comments`, token, {
              method: 'POST',
              body: JSON.stringify({ text: `A question from student ${i} at step ${step}` }),
            }),
          );
        }
        if (step % stepsPer(30) === stepsPer(30) - 1) work.push(openPage());
        step++;
        await Promise.all(work);
        await Bun.sleep(pace * 1000);
      }
    }),
  );
  const ms = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  // Every student opens the page within the first step: that burst apart, what the rest of the run saw.
  const settled = samples
    .filter((sample) => sample.at > Math.min(pace, runSeconds / 4) * 1000 + 2000)
    .map((sample) => sample.ms)
    .sort((a, b) => a - b);
  const kinds = new Map<string, number[]>();
  for (const sample of samples) kinds.set(sample.kind, [...(kinds.get(sample.kind) ?? []), sample.ms]);
  return {
    requests: samples.length,
    failures: samples.filter((sample) => !sample.ok).length,
    p50: pick(ms, 0.5),
    p99: pick(ms, 0.99),
    max: pick(ms, 1),
    settled: { requests: settled.length, p99: pick(settled, 0.99), max: pick(settled, 1) },
    mbps: (samples.reduce((sum, sample) => sum + sample.bytes, 0) * 8) / 1e6 / runSeconds,
    kinds: [...kinds].map(([kind, list]) => {
      list.sort((a, b) => a - b);
      return { kind, count: list.length, p50: pick(list, 0.5), p99: pick(list, 0.99) };
    }),
  };
}

/** A 1080p upload that keeps the worker busy; resolves once it is being transcoded. */
async function startTranscode(d: Deployment) {
  const busy = await d.upload(longClip, 'Being transcoded');
  while ((await d.teacher.api('GET', `/api/videos/${busy.videoId}`)).status !== 'processing') await Bun.sleep(100);
  return async () => (await d.teacher.api('GET', `/api/videos/${busy.videoId}`)).status as string;
}

const label = (shape: Shape, root: string) =>
  `${{ box: 'one box, SQLite', pg: 'one process, PostgreSQL', cluster: 'two serve + a worker, PostgreSQL + S3' }[shape]}${roots.length > 1 ? ` (${root})` : ''}`;
const f = (n: number) => n.toFixed(n < 10 ? 1 : 0);

try {
  for (const shape of shapes) {
    for (const root of roots) {
      const d = await deploy(shape, root);
      try {
        if (classSize) {
          const status = withTranscode ? await startTranscode(d) : undefined;
          const run = await load(d, classSize, seconds, think);
          const still = status ? ` (transcode ${await status()} at the end)` : '';
          console.log(
            `\n${label(shape, root)}${withTranscode ? ', during a 1080p transcode' : ''}${still}: ${run.requests} requests, ${run.failures} failed, p50 ${f(run.p50)} ms, p99 ${f(run.p99)} ms, max ${f(run.max)} ms ${run.p99 < 50 && !run.failures ? '✓' : '✗'} (p99 < 50 ms); load after ${loadavg()[0].toFixed(1)}`,
          );
          console.log(
            `  after the opening burst (every student opens the page in the first step; later requests): ${run.settled.requests} requests, p99 ${f(run.settled.p99)} ms, max ${f(run.settled.max)} ms`,
          );
          console.log('| kind | requests | p50 ms | p99 ms |\n|---|---|---|---|');
          for (const kind of run.kinds)
            console.log(`| ${kind.kind} | ${kind.count} | ${f(kind.p50)} | ${f(kind.p99)} |`);
          continue;
        }
        const ramp = async (what: string) => {
          let served = 0;
          for (let students = 50; students <= maxStudents; students *= 2) {
            const step = await load(d, students, stepSeconds, SEGMENT_SECONDS);
            const ok = step.p99 < P99_BUDGET_MS && step.failures === 0;
            console.log(
              `  ${label(shape, root)}, ${what}: ${students} students: ${step.requests} requests, p99 ${f(step.p99)} ms, ${step.failures} failed, ${step.mbps.toFixed(0)} Mbit/s ${ok ? '✓' : '✗'} (load ${loadavg()[0].toFixed(1)})`,
            );
            if (!ok) break;
            served = students;
          }
          return served;
        };
        const idle = await ramp('idle');
        const status = await startTranscode(d);
        const busy = await ramp('during a 1080p transcode');
        const still = await status();
        console.log(
          `${label(shape, root)}: p99 < ${P99_BUDGET_MS} ms for at least ${idle} students idle, ${busy} during a transcode (${still === 'processing' ? 'still running at the end' : `transcode ${still} before the end`})`,
        );
      } finally {
        await d.stop();
      }
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
