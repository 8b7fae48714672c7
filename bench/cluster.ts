/**
 * bench:cluster — API throughput of one `classroom serve` against two, on PostgreSQL (a throwaway cluster this bench
 * starts, as the tests do), in the same invocation. Each hot route is loaded by autocannon (Node processes of their
 * own, 50 connections in all): against one serve, then split 25 + 25 over two serve processes, and the ratio.
 * On this 2-core machine the load generator, PostgreSQL and the servers share the same cores, so the ratio shows how
 * much a second process gains here, not on a cluster of real hosts.
 * Usage: bun run bench:cluster [--seconds 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { createAccount, type RunningServer, startServer } from '../e2e/server';
import { startTestCluster } from '../scripts/test-postgres';
import { startMailCapture } from '../src/test/mail-capture';

const seconds = (() => {
  const index = process.argv.indexOf('--seconds');
  return index > 0 ? Number(process.argv[index + 1]) : 5;
})();
const main = join(import.meta.dir, '..', 'src', 'main.ts');

/** autocannon in its own process: average requests per second and p99 of one URL. */
async function autocannon(url: string, token: string, connections: number) {
  const child = Bun.spawn(
    [
      'node',
      join(import.meta.dir, '..', 'node_modules', 'autocannon', 'autocannon.js'),
      '-j',
      '-c',
      String(connections),
      '-d',
      String(seconds),
      '-H',
      `authorization=Bearer ${token}`,
      url,
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const out = await new Response(child.stdout).text();
  await child.exited;
  const result = JSON.parse(out) as { requests: { average: number }; latency: { p99: number }; non2xx: number };
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} answers were not 2xx`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

console.log(`bench:cluster — ${seconds} s per run; machine: ${cpus().length} × ${cpus()[0]?.model}`);
const postgres = await startTestCluster();
const mail = await startMailCapture();
const dirs: string[] = [];
const servers: RunningServer[] = [];
try {
  const admin = new SQL(postgres.url, { max: 1 });
  await admin.unsafe('CREATE DATABASE bench');
  await admin.close();
  const env = {
    DATABASE_URL: postgres.url.replace(/\/postgres$/, '/bench'),
    JWT_SECRET: 'bench-cluster-secret-of-at-least-32-characters',
    SMTP_URL: mail.url,
    TEACHER_SIGNUP: 'open',
    LOG_LEVEL: 'info',
  };
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'classroom-bench-cluster-'));
    dirs.push(dir);
    return dir;
  };
  const migrate = Bun.spawn(['bun', main, 'migrate'], { env: { ...process.env, ...env, DATA_DIR: dataDir() } });
  if ((await migrate.exited) !== 0) throw new Error('classroom migrate failed');
  const serve = () => startServer({ command: ['bun', main, 'serve'], env, dataDir: dataDir() });
  servers.push(await serve());
  const teacher = await createAccount(servers[0], mail, 'Bench Teacher', 'teacher');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Load 101' });
  for (let i = 0; i < 20; i++) {
    await teacher.api('POST', '/api/lectures', { courseId: course._id, nameOfTopic: `Topic ${i + 1}` });
  }
  const routes = [
    ['current user', '/api/users'],
    ['class list', '/api/courses'],
    ['lecture list of 20', `/api/lectures/course/${course._id}`],
  ];

  const one: Record<string, { rps: number; p99: number }> = {};
  for (const [name, path] of routes) one[name] = await autocannon(`${servers[0].baseUrl}${path}`, teacher.token, 50);
  servers.push(await serve());
  console.log('| route | one serve req/s (p99) | two serve req/s (p99 of each) | two / one |');
  console.log('|---|---|---|---|');
  for (const [name, path] of routes) {
    const both = await Promise.all(servers.map((server) => autocannon(`${server.baseUrl}${path}`, teacher.token, 25)));
    const rps = both.reduce((sum, run) => sum + run.rps, 0);
    console.log(
      `| ${name} | ${one[name].rps.toFixed(0)} (${one[name].p99} ms) | ${rps.toFixed(0)} (${both.map((run) => `${run.p99} ms`).join(', ')}) | ${(rps / one[name].rps).toFixed(2)} |`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  await mail.close();
  postgres.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
