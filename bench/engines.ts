/**
 * bench:engines — each hot route (bench/hot-routes.ts: current user, class list, lecture list of 50, comments,
 * notes, progress, view) loaded by autocannon against the server on SQLite and on PostgreSQL (a throwaway cluster,
 * as the tests start), same class seeded through the API into both, interleaved route by route (SQLite, PostgreSQL,
 * SQLite, PostgreSQL…), with the PostgreSQL / SQLite ratio the "fast on both engines" issue wants ≥ 0.7. With
 * --root <checkout> (the baseline, e.g. an untouched main) its server is loaded too in the same rounds, and each
 * engine's after / before ratio is printed. bench/bare-peer.ts on this checkout's SQLite file is loaded in the
 * same rounds (the same queries, session check and log line in a bare Bun.serve): server / peer, wanted ≥ 0.75.
 * Then the same again with PostgreSQL pinned to cpu 1 and the servers, the peer and autocannon to cpu 0
 * (`taskset`), so PostgreSQL's own share of the 2 cores is visible. Medians over --rounds.
 * Usage: bun run bench:engines [--root /path/to/baseline] [--seconds 3] [--rounds 3] [--students 10] [--no-pin]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { type RunningServer, startServer, root as thisRoot } from '../e2e/server';
import { startTestCluster } from '../scripts/test-postgres';
import { startMailCapture } from '../src/test/mail-capture';
import { benchDatabase } from './bench-tools';
import { autocannon, BENCH_JWT_SECRET, type Cannon, hotRoutes, seedClass, startPeer } from './hot-routes';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const baseRoots = process.argv.flatMap((value, i) => (process.argv[i - 1] === '--root' ? [value] : []));
const seconds = arg('seconds', 3);
const rounds = arg('rounds', 3);
const studentCount = arg('students', 10);
const pin = !process.argv.includes('--no-pin');
const load = () =>
  `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Sets the CPU affinity of a process and all its threads (`taskset -a`); new children inherit it. */
function pinProcess(pid: number, cpuList: string) {
  const done = Bun.spawnSync(['taskset', '-a', '-p', '-c', cpuList, String(pid)], { stdout: 'ignore', stderr: 'pipe' });
  if (done.exitCode !== 0) throw new Error(`taskset ${pid}: ${done.stderr.toString()}`);
}
/** PostgreSQL's postmaster and every process it forked (backends, checkpointer…): pinned alike. */
function postgresPids(postmaster: number) {
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

type Target = { label: string; base: string; token: string; pid: number; paths: ReturnType<typeof hotRoutes> };

console.log(
  `bench:engines — ${rounds} rounds of ${seconds} s per route and target, autocannon -c 50; machine: ${cpus().length} × ${cpus()[0]?.model}; ${load()}`,
);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-engines-'));
const cluster = await startTestCluster();
const cleanups: (() => Promise<unknown> | unknown)[] = [() => cluster.stop()];
try {
  const admin = new SQL(cluster.url, { max: 1 });
  const [{ data_directory: dataDirectory }] = await admin.unsafe('SHOW data_directory');
  await admin.close();
  const postmaster = Number(readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]);

  const targets: Target[] = [];
  let routes: ReturnType<typeof hotRoutes> = [];
  const checkouts = [
    { name: 'this', root: thisRoot },
    ...baseRoots.map((root, i) => ({ name: baseRoots.length > 1 ? `base${i + 1}` : 'base', root })),
  ];
  let peerFile = '';
  for (const { name, root } of checkouts) {
    for (const engine of ['SQLite', 'PG'] as const) {
      const mail = await startMailCapture();
      cleanups.push(() => mail.close());
      const database = await benchDatabase(engine === 'PG' ? cluster.url : undefined);
      const server: RunningServer = await startServer({
        command: ['bun', join(root, 'src', 'main.ts')],
        cwd: root,
        env: { SMTP_URL: mail.url, JWT_SECRET: BENCH_JWT_SECRET, ...database.env },
      });
      cleanups.push(async () => {
        await server.stop();
        await database.drop();
      });
      const seed = await seedClass(server, mail, work, studentCount);
      const token = seed.students[0]?.token ?? '';
      // Every checkout's class has its own ids: the routes' labels and order are what is shared.
      const own = hotRoutes(seed);
      if (!routes.length) routes = own;
      targets.push({ label: `${name} ${engine}`, base: server.baseUrl, token, pid: server.pid, paths: own });
      if (name === 'this' && engine === 'SQLite') peerFile = join(server.dataDir, 'classroom.sqlite');
      console.log(`  seeded ${name} ${engine} (${root}); ${load()}`);
    }
  }
  const thisSqlite = targets[0] as Target;
  const peer = await startPeer(['bun', join(import.meta.dir, 'bare-peer.ts'), peerFile]);
  cleanups.push(() => peer.child.kill());
  targets.push({
    label: 'bare peer',
    base: peer.base,
    token: thisSqlite.token,
    pid: peer.child.pid,
    paths: thisSqlite.paths,
  });

  for (const pinned of pin ? [false, true] : [false]) {
    const serverCpus = pinned ? '0' : '0,1';
    for (const pid of postgresPids(postmaster)) pinProcess(pid, pinned ? '1' : '0,1');
    for (const target of targets) pinProcess(target.pid, serverCpus);
    const prefix = pinned ? ['taskset', '-c', '0'] : [];
    console.log(
      pinned
        ? '\nPostgreSQL pinned to cpu 1; servers, peer and autocannon to cpu 0:'
        : '\nAll on both cores (PostgreSQL shares them with the servers and autocannon):',
    );
    for (const [index, [label, , write]] of routes.entries()) {
      const results = new Map<string, Cannon[]>(targets.map((target) => [target.label, []]));
      for (let round = 0; round < rounds; round++) {
        for (const target of targets) {
          const path = target.paths[index]?.[1];
          const run = await autocannon(`${target.base}${path}`, target.token, { seconds, write, prefix });
          results.get(target.label)?.push(run);
        }
      }
      const rps = (name: string) => median((results.get(name) ?? []).map((run) => run.rps));
      const p99 = (name: string) => median((results.get(name) ?? []).map((run) => run.p99));
      const bad = [...results.values()].flat().reduce((sum, run) => sum + run.bad, 0);
      const cells = targets.map((t) => `${t.label} ${rps(t.label).toFixed(0)} req/s p99 ${p99(t.label)} ms`).join('; ');
      const ratios = checkouts.map(({ name }) => {
        const ratio = rps(`${name} PG`) / rps(`${name} SQLite`);
        return `${name} PG/SQLite ${ratio.toFixed(2)}${name === 'this' ? (ratio >= 0.7 ? ' ✓' : ' ✗') : ''}`;
      });
      const before = checkouts
        .slice(1)
        .flatMap(({ name }) =>
          ['SQLite', 'PG'].map(
            (engine) => `${engine} this/${name} ${(rps(`this ${engine}`) / rps(`${name} ${engine}`)).toFixed(2)}`,
          ),
        );
      const toPeer = rps('this SQLite') / rps('bare peer');
      console.log(`  ${label}: ${cells}`);
      console.log(
        `    ${[...ratios, ...before, `this SQLite/peer ${toPeer.toFixed(2)}${toPeer >= 0.75 ? ' ✓' : ' ✗'}`].join('; ')}` +
          `${bad ? `; ${bad} not 2xx` : ''}; ${load()}`,
      );
    }
  }
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(work, { recursive: true, force: true });
}
