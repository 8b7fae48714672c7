/**
 * bench:stall — does the server's event loop stall under a light capacity mix, and what was running when it did.
 * The server runs as a child with bench/stall-probe.ts preloaded (stalls over 50 ms, bun:sqlite statements over
 * 20 ms with their SQL); students as bench:capacity makes them fetch a 720p segment every 4 s, save progress every
 * ~12 s, open the lecture list and comments every ~32 s. Prints per checkout: stalls (count, max, when), slow
 * statements, p50/p99/max of the requests.
 * Usage: bun run bench:stall [--students 100] [--seconds 25] [--clip-seconds 60] [--root /path/to/other/checkout ...]
 */
import { Database } from 'bun:sqlite';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, startServer, root as thisRoot } from '../e2e/server';
import { signToken, TOKEN_LIFETIME_SECONDS } from '../src/auth/tokens';
import { SEGMENT_SECONDS } from '../src/media/ladder';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const roots = process.argv.flatMap((value, i) => (process.argv[i - 1] === '--root' ? [value] : []));
const studentCount = arg('students', 100);
const seconds = arg('seconds', 25);
const clipSeconds = arg('clip-seconds', 60);
const probe = join(import.meta.dir, 'stall-probe.ts');
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-stall-'));
const clip = await makeClip(work, { width: 1280, height: 720, seconds: clipSeconds });

async function measure(root: string) {
  const mail = await startMailCapture();
  const jwtSecret = randomBytes(32).toString('hex');
  const server = await startServer({
    env: { SMTP_URL: mail.url, JWT_SECRET: jwtSecret },
    command: ['bun', '--preload', probe, join(root, 'src', 'main.ts')],
    cwd: root,
  });
  try {
    const teacher = await createAccount(server, mail, 'Stall Teacher', 'teacher');
    const course = await teacher.api('POST', '/api/courses', { courseName: 'Stall' });
    const form = new FormData();
    form.append('uploadedFile', Bun.file(clip));
    form.append('courseId', course._id);
    form.append('nameOfTopic', 'The lecture');
    const uploaded = await teacher.api('POST', '/api/upload', form);
    while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') await Bun.sleep(300);
    const lectureId = uploaded.lectureId as string;
    const playlist = await fetch(`${server.baseUrl}/media/videos/${uploaded.videoId}/2/index.m3u8`, {
      headers: { authorization: `Bearer ${teacher.token}` },
    });
    const segments = (await playlist.text()).split('\n').filter((line) => line.endsWith('.m4s'));

    // Accounts, enrollments and sessions written as sign-up and login write them (as bench:capacity does).
    const database = new Database(join(server.dataDir, 'classroom.sqlite'));
    database.exec('PRAGMA busy_timeout = 5000');
    const secret = new TextEncoder().encode(jwtSecret);
    const tokens: string[] = [];
    for (let n = 0; n < studentCount; n++) {
      database.transaction(() => {
        database
          .query(
            "INSERT INTO users (id, username, email, password_hash, role, email_verified_at) VALUES (?, ?, ?, 'x', 'student', ?)",
          )
          .run(`stall-student-${n}`, `Student ${n}`, `student${n}@stall.test`, Date.now());
        database
          .query('INSERT INTO enrollments (id, course_id, student_id) VALUES (?, ?, ?)')
          .run(`stall-enrollment-${n}`, course._id, `stall-student-${n}`);
        database
          .query('INSERT INTO sessions (id, user_id, expires_at) VALUES (?, ?, ?)')
          .run(`stall-session-${n}`, `stall-student-${n}`, Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
      })();
      tokens.push(await signToken(secret, { userId: `stall-student-${n}`, sessionId: `stall-session-${n}` }));
    }
    // bench:capacity keeps its own connection open through the load: so does this, unless --close-seeder.
    if (process.argv.includes('--close-seeder')) database.close();

    const latencies: { kind: string; ms: number; at: number }[] = [];
    const timed = async (kind: string, url: string, token: string, init: RequestInit = {}) => {
      const started = performance.now();
      const response = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      await response.arrayBuffer();
      latencies.push({ kind, ms: performance.now() - started, at: Date.now() });
    };
    const base = server.baseUrl;
    // The server's CPU time (user + system, all threads) over the load: what each request costs it.
    const cpuTicks = async () => {
      const fields = (await Bun.file(`/proc/${server.pid}/stat`).text()).split(') ')[1]?.split(' ') ?? [];
      return Number(fields[11]) + Number(fields[12]);
    };
    const ticksBefore = await cpuTicks();
    const startedAt = Date.now();
    const deadline = performance.now() + seconds * 1000;
    await Promise.all(
      tokens.map(async (token, i) => {
        let segment = i % segments.length;
        let tick = Math.floor(Math.random() * 30);
        await Bun.sleep(Math.random() * SEGMENT_SECONDS * 1000);
        while (performance.now() < deadline) {
          const work = [timed('segment', `${base}/media/videos/${uploaded.videoId}/2/${segments[segment]}`, token)];
          segment = (segment + 1) % segments.length;
          if (tick % 3 === 0) {
            work.push(
              timed('progress', `${base}/api/lectures/${lectureId}/progress`, token, {
                method: 'PUT',
                body: JSON.stringify({ position: segment * SEGMENT_SECONDS, duration: clipSeconds }),
              }),
            );
          }
          if (tick % 8 === 0) {
            work.push(timed('list', `${base}/api/lectures/course/${course._id}`, token));
            work.push(timed('comments', `${base}/api/lectures/${lectureId}/comments`, token));
          }
          tick++;
          await Promise.all(work);
          await Bun.sleep(SEGMENT_SECONDS * 1000);
        }
      }),
    );
    const serverCpuMs = ((await cpuTicks()) - ticksBefore) * 10;
    const events = server
      .logs()
      .split('\n')
      .filter((line) => line.startsWith('[probe] '))
      .map(
        (line) =>
          JSON.parse(line.slice(8)) as {
            at: number;
            kind: string;
            ms: number;
            sql?: string;
            cpuMs?: number;
            heapMB?: number;
            samples?: string[];
            count?: number;
            heldMs?: number;
          },
      )
      .filter((event) => event.at >= startedAt);
    const stalls = events.filter((event) => event.kind === 'stall');
    const slow = events.filter((event) => event.kind === 'sql');
    // The loop's thread as the watcher saw it in stalls: R = runnable (busy, or waiting for a CPU the machine gave
    // others), S = sleeping in a system call (a blocking write, fsync, lock), D = disk wait.
    const states: Record<string, number> = {};
    for (const sample of events.flatMap((event) => event.samples ?? [])) {
      const state = sample.split(':')[1] ?? '?';
      states[state] = (states[state] ?? 0) + 1;
    }
    const stallCpuMs = stalls.reduce((sum, stall) => sum + (stall.cpuMs ?? 0), 0);
    const stallMs = stalls.reduce((sum, stall) => sum + stall.ms, 0);
    const sorted = latencies.map((l) => l.ms).sort((a, b) => a - b);
    const pick = (q: number) => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0).toFixed(0);
    const [load] = (await Bun.file('/proc/loadavg').text()).split(' ');
    console.log(
      `${root}: ${latencies.length} requests, p50 ${pick(0.5)} ms, p99 ${pick(0.99)} ms, max ${pick(1)} ms; ` +
        `${stalls.length} stalls > 50 ms (max ${Math.max(0, ...stalls.map((s) => s.ms))} ms); ${slow.length} statements > 20 ms; ` +
        `in stalls the process ran ${stallCpuMs} of ${stallMs} ms, thread states ${JSON.stringify(states)}; ` +
        `server CPU ${serverCpuMs} ms (${(serverCpuMs / latencies.length).toFixed(2)} ms a request); load ${load}`,
    );
    for (const event of events) {
      const detail =
        event.kind === 'stall'
          ? `cpu ${event.cpuMs} ms, heap ${event.heapMB} MB`
          : event.kind === 'watch'
            ? event.samples?.join(' ')
            : event.kind === 'transactions'
              ? `${event.count} transactions held the connection ${event.heldMs} ms in all`
              : (event.sql ?? '');
      console.log(`  +${((event.at - startedAt) / 1000).toFixed(2)} s ${event.kind} ${event.ms ?? ''} ${detail}`);
    }
    if (process.argv.includes('--log'))
      console.log(
        server
          .logs()
          .split('\n')
          .filter((l) => !l.includes('"GET') && !l.includes('"PUT'))
          .slice(-80)
          .join('\n'),
      );
    for (const kind of ['segment', 'progress', 'list', 'comments']) {
      const of = latencies
        .filter((l) => l.kind === kind)
        .map((l) => l.ms)
        .sort((a, b) => a - b);
      const p99 = of[Math.floor(of.length * 0.99)] ?? 0;
      console.log(
        `  ${kind}: ${of.length} requests, p99 ${p99.toFixed(0)} ms, ${of.filter((ms) => ms > 100).length} over 100 ms`,
      );
    }
    const slowRequests = latencies
      .filter((l) => l.ms > 100)
      .map((l) => `${((l.at - l.ms - startedAt) / 1000).toFixed(2)}+${l.ms.toFixed(0)}`);
    console.log(`  requests over 100 ms (start s + ms): ${slowRequests.slice(0, 40).join(' ')}`);
    database.close();
  } finally {
    await server.stop();
    await mail.close();
  }
}

try {
  for (const root of roots.length ? roots : [thisRoot]) await measure(root);
} finally {
  rmSync(work, { recursive: true, force: true });
}
