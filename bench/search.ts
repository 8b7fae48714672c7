/**
 * bench:search — search latency over a school's worth of lectures: 10,000 lectures in 100 classes, each with a
 * caption file of 40 cues (generated text over a Zipf-distributed vocabulary, so common words are in most cues
 * and rare ones in a few) and a title. The lectures and captions are written once through the app's own query
 * functions (createLecture, putCaption: the same indexing as the routes) into a SQLite data folder kept in
 * node_modules/.cache/bench-search (seeding takes a minute or two); PostgreSQL gets the same data by `classroom
 * migrate-data` into a throwaway cluster (scripts/test-postgres.ts) or the server at --database-url, dumped beside
 * the seed so later runs restore it instead. Then GET /api/search over real HTTP, the server a child process, with 1,
 * 4 and 16 searches in flight (common words, rare words, two- and three-word phrases, a typed prefix), as students
 * enrolled in every class and as teachers of an eighth of them. Baseline: each --root checkout (default: this one)
 * serves a copy of the same data with its own migrations applied at start, the checkouts taking turns per engine and
 * concurrency; prints p50/p95/p99 per checkout and the p95 ratio to the first, with the machine and its load. The
 * target is p95 < 50 ms.
 * Usage: bun run bench:search [--root /tmp/base --root .] [--concurrency 1,4,16] [--rounds 2] [--engines sqlite,postgres]
 *        [--searches 400] [--lectures 10000] [--cues 40] [--classes 100] [--database-url postgres://…] [--keep] [--kinds]
 */

import { Database } from 'bun:sqlite';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SQL } from 'bun';
import { createAccount, type RunningServer, startServer, root as thisRoot } from '../e2e/server';
import { startTestCluster } from '../scripts/test-postgres';
import { openDatabase } from '../src/db/client';
import { createLecture, putCaption } from '../src/db/queries/lectures';
import { apiClient } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { wireConsequences } from '../src/wiring';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const text = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? (process.argv[index + 1] as string) : fallback;
};
const lectureCount = arg('lectures', 10_000);
const cueCount = arg('cues', 40);
const classCount = arg('classes', 100);
const rounds = arg('rounds', 2);
const searchesPerRun = arg('searches', 400);
const concurrencies = text('concurrency', '1,4,16').split(',').map(Number);
const engines = text('engines', 'sqlite,postgres').split(',');
const roots = process.argv.flatMap((value, i) => (process.argv[i - 1] === '--root' ? [resolve(value)] : []));
if (roots.length === 0) roots.push(thisRoot);
const databaseUrl = process.argv.includes('--database-url') ? text('database-url', '') : undefined;
/** Keep the copies (SQLite folders, PostgreSQL databases) for a look at the query plans; where is printed. */
const keep = process.argv.includes('--keep');
/** Print each kind of query apart too. */
const byKind = process.argv.includes('--kinds');
/** Users of each kind; a run spreads its searches over them (the route allows 60 a minute per person). */
const USERS = 8;

// A deterministic generator: the same text on every run.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)] as T;

const COMMON = 'the of and to a in is that it for on as with this we are be by at from or an so can which'.split(' ');
const SUBJECT =
  'cell energy photosynthesis mitochondria protein enzyme membrane nucleus gene chromosome evolution species ecosystem population equation function derivative integral matrix vector theorem proof limit series probability variance distribution force momentum velocity acceleration gravity electron proton neutron atom molecule bond reaction catalyst acid base oxidation entropy temperature pressure volume wave frequency amplitude circuit current voltage resistance magnet field lens light spectrum poem novel metaphor narrative empire revolution treaty parliament economy market inflation supply demand climate glacier volcano earthquake river delta continent algorithm recursion compiler database network protocol encryption graph tree sorting'.split(
    ' ',
  );
const SYLLABLES = 'ka lo mi ne ru sa ti vo be da fi gu ho ja ke li mo nu pa re si to va ze'.split(' ');
// The long tail: 4,000 made-up words (rare terms, names, jargon).
const TAIL = Array.from({ length: 4000 }, (_, i) => {
  let word = '';
  let n = i + 7;
  for (let k = 0; k < 3 + (i % 2); k++) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length) + k * 5;
  }
  return `${word}${i % 10}`.replace(/\d/g, (d) => 'xqwz'[Number(d) % 4] ?? '');
});
const VOCABULARY = [...COMMON, ...SUBJECT, ...TAIL];
// Zipf: the word of rank r is chosen in proportion to 1/r.
const weights = VOCABULARY.map((_, rank) => 1 / (rank + 1));
const total = weights.reduce((sum, weight) => sum + weight, 0);
const cumulative = weights.reduce<number[]>((list, weight) => {
  list.push((list.at(-1) ?? 0) + weight / total);
  return list;
}, []);
const zipfWord = () => {
  const r = random();
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] ?? 1) < r) low = mid + 1;
    else high = mid;
  }
  return VOCABULARY[low] as string;
};
const sentence = (words: number) => Array.from({ length: words }, zipfWord).join(' ');
const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 3600)).padStart(2, '0')}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.000`;
const vttOf = (lines: string[]) =>
  `WEBVTT\n\n${lines.map((line, i) => `${clock(i * 15)} --> ${clock(i * 15 + 14)}\n${line}\n`).join('\n')}`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const f = (n: number) => n.toFixed(1).padStart(6);
  return `n=${String(sorted.length).padStart(4)}  p50 ${f(percentile(sorted, 50))} ms  p95 ${f(percentile(sorted, 95))} ms  p99 ${f(percentile(sorted, 99))} ms  max ${f(sorted.at(-1) ?? 0)} ms`;
};

const machine = () =>
  `${cpus().length} × ${cpus()[0]?.model}, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
console.log(
  `bench:search — ${lectureCount.toLocaleString('en')} lectures × ${cueCount} cues in ${classCount} classes; ${engines.join(' and ')}; ${concurrencies.join(', ')} in flight; ${rounds} rounds of ${searchesPerRun} searches; machine: ${machine()}`,
);

type Seed = { tokens: { student: string[]; teacher: string[] }; phrases: string[] };
const migrationsOf = (root: string) => readdirSync(join(root, 'migrations')).filter((name) => name.endsWith('.sql'));
// The seed has the schema of the checkout with the fewest migrations: each other checkout applies its own at start,
// so an index one of them adds is never in another's copy.
const seedRoot = [...roots].sort((a, b) => migrationsOf(a).length - migrationsOf(b).length)[0] as string;
const seedDir = join(
  thisRoot,
  'node_modules',
  '.cache',
  'bench-search',
  `${lectureCount}x${cueCount}x${classCount}-${migrationsOf(seedRoot).length}`,
);

/** Writes the school into a SQLite data folder through the seed checkout's server and this checkout's queries. */
async function seedSqlite(): Promise<Seed> {
  const manifest = join(seedDir, 'seed.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as Seed;
  rmSync(seedDir, { recursive: true, force: true });
  mkdirSync(seedDir, { recursive: true });
  const mail = await startMailCapture();
  const server = await startServer({
    dataDir: seedDir,
    command: ['bun', join(seedRoot, 'src', 'main.ts')],
    cwd: seedRoot,
    env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' },
  });
  try {
    const teachers = await Promise.all(
      Array.from({ length: USERS }, (_, i) => createAccount(server, mail, `Teacher ${i}`, 'teacher')),
    );
    const students = await Promise.all(
      Array.from({ length: USERS }, (_, i) => createAccount(server, mail, `Student ${i}`, 'student')),
    );
    const call = apiClient(server.baseUrl);
    const classes: string[] = [];
    for (let i = 0; i < classCount; i++) {
      const teacher = teachers[i % teachers.length] as (typeof teachers)[number];
      const created = await call('POST', '/api/courses', { as: teacher.token, body: { courseName: `Class ${i}` } });
      if (created.status !== 201) throw new Error(`class: ${created.status} ${created.text}`);
      classes.push(created.json._id);
      for (const student of students) {
        const joined = await call('POST', '/api/enrollments/join', {
          as: student.token,
          body: { inviteCode: created.json.inviteCode },
        });
        if (joined.status >= 300) throw new Error(`join: ${joined.status} ${joined.text}`);
      }
    }
    // The lectures and their captions, through the app's own queries on the server's database.
    const started = performance.now();
    // Search entries are a consequence of the writes (src/wiring.ts), which this process makes itself.
    wireConsequences();
    const database = openDatabase({ databaseFile: join(seedDir, 'classroom.sqlite') });
    const phrases: string[] = [];
    for (let i = 0; i < lectureCount; i++) {
      const lecture = await createLecture(database.db, {
        courseId: classes[i % classes.length] as string,
        nameOfTopic: `${pick(SUBJECT)} ${pick(SUBJECT)} ${i}`,
        videoId: null,
      });
      const lines = Array.from({ length: cueCount }, () => sentence(8 + Math.floor(random() * 8)));
      if (i % 100 === 0) phrases.push(lines[Math.min(7, lines.length - 1)] as string);
      await putCaption(database.db, { lectureId: lecture.id, language: 'en', label: 'English', vtt: vttOf(lines) }, 10);
      if ((i + 1) % 2000 === 0)
        console.log(`  ${i + 1} lectures written (${((performance.now() - started) / 1000).toFixed(0)} s)`);
    }
    await database.close();
    console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s into ${seedDir}`);
    const seed: Seed = {
      tokens: { student: students.map((s) => s.token), teacher: teachers.map((t) => t.token) },
      phrases,
    };
    writeFileSync(manifest, JSON.stringify(seed));
    return seed;
  } finally {
    await server.stop();
    await mail.close?.();
  }
}

const school = await seedSqlite();
const jwtSecret = readFileSync(join(seedDir, 'jwt-secret'), 'utf8').trim();

// The queries, by kind: the same on every run, whether the school was written now or before.
seed = 7;
const words = (line: string) => line.split(' ');
const queries: { kind: string; q: string }[] = [];
for (let i = 0; i < 40; i++) {
  queries.push({ kind: 'common word', q: pick(SUBJECT.slice(0, 10)) });
  queries.push({ kind: 'subject word', q: pick(SUBJECT) });
  queries.push({ kind: 'rare word', q: pick(TAIL.slice(1000)) });
  const line = words(pick(school.phrases));
  const at = Math.floor(random() * (line.length - 3));
  queries.push({ kind: 'two words', q: line.slice(at, at + 2).join(' ') });
  queries.push({ kind: 'three words', q: line.slice(at, at + 3).join(' ') });
  queries.push({ kind: 'typed prefix', q: pick(SUBJECT).slice(0, 4) });
  queries.push({ kind: 'stopword + prefix', q: `the ${pick(SUBJECT).slice(0, 5)}` });
}

type Served = { root: string; engine: string; server: RunningServer; clearLimits: () => Promise<void> };
const cleanups: (() => Promise<void> | void)[] = [];

/** One server per checkout on its own copy of the seed. */
async function serve(engine: string): Promise<Served[]> {
  const served: Served[] = [];
  let pg: { url: string; admin: SQL; template: string } | undefined;
  if (engine === 'postgres') {
    let url = databaseUrl;
    if (!url) {
      const cluster = await startTestCluster();
      cleanups.push(() => (keep ? console.log(`Cluster kept: ${cluster.url}`) : cluster.stop()));
      url = cluster.url;
    }
    const admin = new SQL(url, { max: 1 });
    const template = `bench_search_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
    await admin.unsafe(`CREATE DATABASE ${template}`);
    const target = new URL(url);
    target.pathname = `/${template}`;
    const started = performance.now();
    // The first run moves the seed with `classroom migrate-data` (minutes) and keeps a dump; later runs restore it.
    const dump = join(seedDir, 'postgres.dump');
    if (existsSync(dump)) {
      const restore = Bun.spawn(['pg_restore', '--no-owner', '-d', target.href, dump], { stderr: 'pipe' });
      if ((await restore.exited) !== 0) throw new Error(`pg_restore: ${await new Response(restore.stderr).text()}`);
    } else {
      const copy = mkdtempSync(join(tmpdir(), 'classroom-bench-search-'));
      cpSync(seedDir, copy, { recursive: true });
      const move = Bun.spawn(['bun', join(seedRoot, 'src', 'main.ts'), 'migrate-data'], {
        cwd: seedRoot,
        env: { ...process.env, DATA_DIR: copy, DATABASE_URL: target.href, JWT_SECRET: jwtSecret },
        stdout: 'ignore',
        stderr: 'pipe',
      });
      if ((await move.exited) !== 0) throw new Error(`migrate-data: ${await new Response(move.stderr).text()}`);
      rmSync(copy, { recursive: true, force: true });
      const save = Bun.spawn(['pg_dump', '-Fc', '-f', `${dump}.part`, target.href], { stderr: 'pipe' });
      if ((await save.exited) !== 0) throw new Error(`pg_dump: ${await new Response(save.stderr).text()}`);
      renameSync(`${dump}.part`, dump);
    }
    const moved = new SQL(target.href, { max: 1 });
    // The statistics and the tidy GIN index a live server's autovacuum would have by now.
    await moved.unsafe('VACUUM ANALYZE');
    await moved.close();
    console.log(`PostgreSQL: the seed moved in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    pg = { url, admin, template };
    cleanups.push(async () => {
      if (!keep) await admin.unsafe(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.close();
    });
  }
  for (const [i, root] of roots.entries()) {
    const dataDir = mkdtempSync(join(tmpdir(), 'classroom-bench-search-'));
    cleanups.push(() =>
      keep ? console.log(`Data kept in ${dataDir}`) : rmSync(dataDir, { recursive: true, force: true }),
    );
    const env: Record<string, string> = { JWT_SECRET: jwtSecret };
    let clearLimits: () => Promise<void>;
    if (pg) {
      const name = `${pg.template}_${i}`;
      await pg.admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${pg.template}`);
      const target = new URL(pg.url);
      target.pathname = `/${name}`;
      env.DATABASE_URL = target.href;
      const admin = pg.admin;
      cleanups.push(async () => {
        if (keep) console.log(`Database kept: ${target.href}`);
        else await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
      const client = new SQL(target.href, { max: 1 });
      cleanups.push(() => client.close());
      clearLimits = async () => {
        await client.unsafe('DELETE FROM rate_limits');
      };
    } else {
      cpSync(seedDir, dataDir, { recursive: true });
      clearLimits = async () => {
        const sqlite = new Database(join(dataDir, 'classroom.sqlite'));
        sqlite.exec('PRAGMA busy_timeout = 5000');
        sqlite.exec('DELETE FROM rate_limits');
        sqlite.close();
      };
    }
    const server = await startServer({ dataDir, command: ['bun', join(root, 'src', 'main.ts')], cwd: root, env });
    cleanups.push(() => server.stop());
    served.push({ root, engine, server, clearLimits });
  }
  return served;
}

/** `searches` searches, `inFlight` at a time, spread over the students and teachers; answers the times by label. */
async function run(target: Served, inFlight: number, offset: number) {
  await target.clearLimits();
  const call = apiClient(target.server.baseUrl);
  const times = new Map<string, number[]>();
  let next = 0;
  const worker = async () => {
    while (next < searchesPerRun) {
      const i = next++;
      const { kind, q } = queries[(offset + i) % queries.length] as { kind: string; q: string };
      const who = i % 2 === 0 ? 'student' : 'teacher';
      const token = school.tokens[who][Math.floor(i / 2) % USERS] as string;
      const begin = performance.now();
      const answer = await call('GET', `/api/search?q=${encodeURIComponent(q)}`, { as: token });
      const ms = performance.now() - begin;
      if (answer.status !== 200) throw new Error(`search ${q}: ${answer.status} ${answer.text}`);
      for (const key of [`${who}: ${kind}`, 'all']) times.set(key, [...(times.get(key) ?? []), ms]);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return times;
}

let missed = false;
try {
  for (const engine of engines) {
    const served = await serve(engine);
    // Warm-up (not counted): each server answers every kind once.
    for (const target of served) {
      const call = apiClient(target.server.baseUrl);
      for (const { q } of queries.slice(0, 14))
        await call('GET', `/api/search?q=${encodeURIComponent(q)}`, { as: school.tokens.student[0] });
    }
    for (const inFlight of concurrencies) {
      const results = new Map<string, Map<string, number[]>>();
      const loads: number[] = [];
      for (let round = 0; round < rounds; round++) {
        // Turns alternate which checkout goes first, so neither always meets the other's leftovers.
        const order = round % 2 === 0 ? served : [...served].reverse();
        for (const target of order) {
          const times = await run(target, inFlight, round * searchesPerRun);
          loads.push(loadavg()[0] ?? 0);
          const all = results.get(target.root) ?? new Map<string, number[]>();
          for (const [key, list] of times) all.set(key, [...(all.get(key) ?? []), ...list]);
          results.set(target.root, all);
        }
      }
      const basis = percentile(
        [...(results.get(roots[0] as string)?.get('all') ?? [])].sort((a, b) => a - b),
        95,
      );
      console.log(
        `\n${engine === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${inFlight} in flight (load average during: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${machine()}):`,
      );
      for (const root of roots) {
        const times = results.get(root) as Map<string, number[]>;
        const all = [...(times.get('all') ?? [])].sort((a, b) => a - b);
        const p95 = percentile(all, 95);
        if (root !== roots[0] || roots.length === 1) missed ||= p95 >= 50;
        const ratio = root === roots[0] ? '' : `  p95 ${(p95 / basis).toFixed(2)}× of ${roots[0]}`;
        console.log(`  ${root.padEnd(24)} ${summary(all)}${ratio}  ${p95 < 50 ? 'under' : 'OVER'} 50 ms`);
        if (byKind) {
          for (const [key, list] of [...times.entries()].sort(([a], [b]) => a.localeCompare(b))) {
            if (key !== 'all') console.log(`    ${key.padEnd(34)} ${summary(list)}`);
          }
        }
      }
    }
    while (cleanups.length) await cleanups.pop()?.();
  }
} finally {
  while (cleanups.length) await cleanups.pop()?.();
}
console.log(`\nmachine after: ${machine()}`);
if (missed) console.log('p95 is OVER the 50 ms target somewhere above');
