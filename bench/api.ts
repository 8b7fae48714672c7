/**
 * bench:api — N simulated students (concurrent loops on loopback, bounded in time) fetch the course, the lecture
 * list, the comments and HLS files of a class with 50 lectures and 500 comments, against the real server as a
 * child process. Prints requests per second and p50/p99 latency, and the same load against a bare Bun.serve
 * answering a static JSON from memory (the ceiling), in the same invocation. Then the gzipped size of what the
 * login page and the course page load in Chromium.
 *
 * Then each hot route on its own: autocannon (a Node process of its own, 50 connections) against the server and
 * against bench/bare-peer.ts (a bare Bun.serve doing the same queries on the same file with prepared statements),
 * interleaved, and the ratio, which the "fast where it matters" issue wants ≥ 0.8; and against
 * bench/express-peer.cjs (Express 5 + better-sqlite3 under Node, the same queries), which the server should beat.
 * With --database-url postgres://… the server runs on a fresh database made on that PostgreSQL server (dropped at
 * the end); the SQLite-only parts (query plans, the peers reading the SQLite file) are left out.
 * Usage: bun run bench:api [--students 50] [--seconds 10] [--route-seconds 5] [--database-url postgres://…]
 */
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '../e2e/browser';
import { type RunningServer, signedInContext, startServer } from '../e2e/server';
import { startMailCapture } from '../src/test/mail-capture';
import { benchDatabase, benchTool } from './bench-tools';
import { autocannon, BENCH_JWT_SECRET, hotRoutes, seedClass, startPeer } from './hot-routes';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const studentCount = arg('students', 50);
const seconds = arg('seconds', 10);
const routeSeconds = arg('route-seconds', 5);
const databaseUrl = process.argv.includes('--database-url')
  ? process.argv[process.argv.indexOf('--database-url') + 1]
  : undefined;

type Load = { requests: number; errors: number; rps: number; p50: number; p99: number };

/** Each student loops over its list of URLs until time is up; latencies of every request are kept. */
async function runLoad(
  targets: { urls: string[]; headers: Record<string, string> }[],
  durationS: number,
): Promise<Load> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + durationS * 1000;
  const started = performance.now();
  await Promise.all(
    targets.map(async ({ urls, headers }) => {
      while (performance.now() < deadline) {
        for (const url of urls) {
          const t0 = performance.now();
          const response = await fetch(url, { headers });
          await response.arrayBuffer();
          latencies.push(performance.now() - t0);
          if (!response.ok) errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))];
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

const show = (label: string, load: Load) =>
  console.log(
    `  ${label}: ${load.rps.toFixed(0)} req/s, p50 ${load.p50.toFixed(1)} ms, p99 ${load.p99.toFixed(1)} ms (${load.requests} requests, ${load.errors} errors)`,
  );

console.log(
  `bench:api — ${studentCount} students, ${seconds} s per run; machine: ${cpus().length} × ${cpus()[0]?.model}`,
);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-api-'));
const mail = await startMailCapture();
let server: RunningServer | undefined;
const benchDb = await benchDatabase(databaseUrl);
try {
  server = await startServer({ env: { SMTP_URL: mail.url, JWT_SECRET: BENCH_JWT_SECRET, ...benchDb.env } });
  const seed = await seedClass(server, mail, work, studentCount);
  const { students, watched, uploaded, course } = seed;

  const base = server.baseUrl;
  const media = `${base}/media/videos/${uploaded.videoId}`;
  const urls = [
    `${base}/api/courses/${course._id}`,
    `${base}/api/lectures/course/${course._id}`,
    `${base}/api/lectures/${watched}/comments`,
    `${media}/master.m3u8`,
    `${media}/0/index.m3u8`,
    `${media}/0/seg_00000.m4s`,
  ];
  const sizes = await Promise.all(
    urls.map(
      async (url) =>
        (await (await fetch(url, { headers: { authorization: `Bearer ${students[0].token}` } })).arrayBuffer())
          .byteLength,
    ),
  );
  console.log(
    `  panels: course ${sizes[0]} B, 50 lectures ${sizes[1]} B, 500 comments ${sizes[2]} B, segment ${sizes[5]} B — one request each`,
  );

  const database = databaseUrl ? undefined : new Database(join(server.dataDir, 'classroom.sqlite'), { readonly: true });
  for (const [label, query] of !database
    ? []
    : [
        [
          'comments of a lecture',
          `SELECT * FROM comments WHERE lecture_id = '${watched}' ORDER BY created_at DESC LIMIT 500`,
        ],
        ['lectures of a course', `SELECT * FROM lectures WHERE course_id = '${course._id}' ORDER BY created_at`],
      ]) {
    const plan = database
      ?.query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${query}`)
      .all()
      .map((row) => row.detail);
    console.log(`  query plan, ${label}: ${plan?.join('; ')}`);
  }
  database?.close();

  // Ceiling: a bare Bun.serve answering a static JSON from memory, as a child process like the server.
  const bare = Bun.spawn(
    [
      'bun',
      '-e',
      "const body = JSON.stringify({ ok: true, items: Array.from({ length: 20 }, (_, i) => ({ i })) }); const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(body, { headers: { 'content-type': 'application/json' } }) }); console.log(s.port);",
    ],
    { stdout: 'pipe' },
  );
  const reader = bare.stdout.getReader();
  const barePort = new TextDecoder().decode((await reader.read()).value).trim();
  const bareLoad = await runLoad(
    students.map(() => ({ urls: urls.map(() => `http://127.0.0.1:${barePort}/`), headers: {} })),
    seconds,
  );
  bare.kill();
  const appLoad = await runLoad(
    students.map((student) => ({ urls, headers: { authorization: `Bearer ${student.token}` } })),
    seconds,
  );
  show('classroom server', appLoad);
  show('bare Bun.serve  ', bareLoad);
  console.log(
    `  ratio (server / bare): ${(appLoad.rps / bareLoad.rps).toFixed(2)} of the throughput, p99 ${(appLoad.p99 / bareLoad.p99).toFixed(1)}×`,
  );

  // Each hot route alone, against the bare peer and the Express peer on the same file, interleaved.
  const file = join(server.dataDir, 'classroom.sqlite');
  if (databaseUrl) console.log('  (PostgreSQL: the peers read the SQLite file, so each route is measured alone)');
  const peer = databaseUrl ? undefined : await startPeer(['bun', join(import.meta.dir, 'bare-peer.ts'), file]);
  const expressPeer = databaseUrl
    ? undefined
    : await startPeer([
        'node',
        join(import.meta.dir, 'express-peer.cjs'),
        benchTool('express', ['express@5', 'better-sqlite3@12'], 'better-sqlite3/build/Release/better_sqlite3.node'),
        file,
      ]);
  const routes = hotRoutes(seed);
  console.log(`hot routes, autocannon -c 50 -d ${routeSeconds} each (server, bare Bun peer, Express peer):`);
  // The writes go through the same file from three processes in turn.
  const token = students[0]?.token ?? '';
  for (const [label, path, write] of routes) {
    const app = await autocannon(`${base}${path}`, token, { seconds: routeSeconds, write });
    if (!peer || !expressPeer) {
      console.log(`  ${label}: ${app.rps.toFixed(0)} req/s p99 ${app.p99} ms${app.bad ? ` (${app.bad} not 2xx)` : ''}`);
      continue;
    }
    const bareRoute = await autocannon(`${peer.base}${path}`, token, { seconds: routeSeconds, write });
    const expressRoute = await autocannon(`${expressPeer.base}${path}`, token, { seconds: routeSeconds, write });
    const ratio = app.rps / bareRoute.rps;
    const ahead = app.rps / expressRoute.rps;
    const bad = app.bad + bareRoute.bad + expressRoute.bad;
    console.log(
      `  ${label}: ${app.rps.toFixed(0)} req/s p99 ${app.p99} ms; bare ${bareRoute.rps.toFixed(0)} req/s p99 ${bareRoute.p99} ms; ` +
        `Express ${expressRoute.rps.toFixed(0)} req/s p99 ${expressRoute.p99} ms; ratio to bare ${ratio.toFixed(2)} ` +
        `${ratio >= 0.8 ? '✓' : '✗'} ≥ 0.8, to Express ${ahead.toFixed(2)} ${ahead > 1 ? '✓' : '✗'} > 1` +
        `${bad ? ` (${app.bad}/${bareRoute.bad}/${expressRoute.bad} not 2xx)` : ''}`,
    );
  }
  peer?.child.kill();
  expressPeer?.child.kill();

  // What each page makes the browser download, gzipped.
  const browser = await launchBrowser();
  for (const [label, path, token] of [
    ['login page', '/login', undefined],
    ['course page', `/classroom/${course._id}?lecture=${watched}`, students[0].token],
  ] as const) {
    const context = token ? await signedInContext(browser, server, token) : await browser.newContext();
    const page = await context.newPage();
    let gzipped = 0;
    let files = 0;
    page.on('response', async (response) => {
      const type = response.headers()['content-type'] ?? '';
      if (!/javascript|css|html/.test(type)) return;
      try {
        gzipped += Bun.gzipSync(new Uint8Array(await response.body())).length;
        files++;
      } catch {
        // body not available (redirect)
      }
    });
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    if (token) await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await page.waitForTimeout(1500);
    console.log(`  web bundle, ${label}: ${(gzipped / 1024).toFixed(0)} KiB gzipped in ${files} files (HTML, JS, CSS)`);
    await context.close();
  }
  await browser.close();
} finally {
  await server?.stop();
  await benchDb.drop();
  await mail.close();
  rmSync(work, { recursive: true, force: true });
}
