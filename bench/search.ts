/**
 * bench:search — search latency over a school's worth of lectures: 10,000 lectures in 100 classes, each with a
 * caption file of 40 cues (generated text over a Zipf-distributed vocabulary, so common words are in most cues
 * and rare ones in a few) and a title. The server runs as a child process (real HTTP); the lectures and captions
 * are written through the app's own query functions (createLecture, putCaption: the same indexing as the routes).
 * Then GET /api/search over a set of queries (common words, rare words, two- and three-word phrases, a typed
 * prefix), as students enrolled in every class (every row is theirs to see) and as teachers of 10 classes each, one
 * request at a time. Prints p50/p95/p99 per kind of query and overall, with the machine. The target is p95 < 50 ms.
 * Usage: bun run bench:search [--lectures 10000] [--cues 40] [--classes 100] [--database-url postgres://…]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type RunningServer, startServer } from '../e2e/server';
import { openDatabase } from '../src/db/client';
import { createLecture, putCaption } from '../src/db/queries/lectures';
import { apiClient } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { wireConsequences } from '../src/wiring';
import { benchDatabase } from './bench-tools';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const lectureCount = arg('lectures', 10_000);
const cueCount = arg('cues', 40);
const classCount = arg('classes', 100);
const databaseUrl = process.argv.includes('--database-url')
  ? process.argv[process.argv.indexOf('--database-url') + 1]
  : undefined;
/** Keep the data folder (SQLite) or database (PostgreSQL) for a look at the query plans; where is printed. */
const keep = process.argv.includes('--keep');
/** Users of each kind; each searches at most 50 times (the route allows 60 a minute per person). */
const USERS = 8;
const SEARCHES_PER_USER = 50;

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

console.log(
  `bench:search — ${lectureCount.toLocaleString('en')} lectures × ${cueCount} cues in ${classCount} classes on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}; machine: ${cpus().length} × ${cpus()[0]?.model}`,
);
const mail = await startMailCapture();
const benchDb = await benchDatabase(databaseUrl);
const dataDir = mkdtempSync(join(tmpdir(), 'classroom-bench-search-'));
let server: RunningServer | undefined;
try {
  server = await startServer({ dataDir, env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open', ...benchDb.env } });
  const teachers = await Promise.all(
    Array.from({ length: USERS }, (_, i) => createAccount(server as RunningServer, mail, `Teacher ${i}`, 'teacher')),
  );
  const students = await Promise.all(
    Array.from({ length: USERS }, (_, i) => createAccount(server as RunningServer, mail, `Student ${i}`, 'student')),
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
  const database = openDatabase({
    databaseUrl: benchDb.env.DATABASE_URL,
    databaseFile: join(dataDir, 'classroom.sqlite'),
  });
  const phrases: string[] = [];
  for (let i = 0; i < lectureCount; i++) {
    const lecture = await createLecture(database.db, {
      courseId: classes[i % classes.length] as string,
      nameOfTopic: `${pick(SUBJECT)} ${pick(SUBJECT)} ${i}`,
      videoId: null,
    });
    const lines = Array.from({ length: cueCount }, () => sentence(8 + Math.floor(random() * 8)));
    if (i % 100 === 0) phrases.push(lines[7] as string);
    await putCaption(database.db, { lectureId: lecture.id, language: 'en', label: 'English', vtt: vttOf(lines) }, 10);
    if ((i + 1) % 2000 === 0)
      console.log(`  ${i + 1} lectures written (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // PostgreSQL: the statistics a live server's autovacuum would have gathered by now (SQLite has none to gather).
  if (database.postgres) await database.postgres.unsafe('ANALYZE');
  await database.close();
  console.log(`Seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The queries, by kind.
  const words = (line: string) => line.split(' ');
  const queries: { kind: string; q: string }[] = [];
  for (let i = 0; i < 40; i++) {
    queries.push({ kind: 'common word', q: pick(SUBJECT.slice(0, 10)) });
    queries.push({ kind: 'subject word', q: pick(SUBJECT) });
    queries.push({ kind: 'rare word', q: pick(TAIL.slice(1000)) });
    const line = words(pick(phrases));
    const at = Math.floor(random() * (line.length - 3));
    queries.push({ kind: 'two words', q: line.slice(at, at + 2).join(' ') });
    queries.push({ kind: 'three words', q: line.slice(at, at + 3).join(' ') });
    queries.push({ kind: 'typed prefix', q: pick(SUBJECT).slice(0, 4) });
    queries.push({ kind: 'stopword + prefix', q: `the ${pick(SUBJECT).slice(0, 5)}` });
  }
  const times = new Map<string, number[]>();
  const run = async (who: string, user: (typeof students)[number], q: string, kind: string) => {
    const begin = performance.now();
    const answer = await call('GET', `/api/search?q=${encodeURIComponent(q)}`, { as: user.token });
    const ms = performance.now() - begin;
    if (answer.status !== 200) throw new Error(`search ${q}: ${answer.status} ${answer.text}`);
    for (const key of [`${who}: ${kind}`, who, 'all']) times.set(key, [...(times.get(key) ?? []), ms]);
    return answer.json.hits.length as number;
  };
  // Warm-up (not counted): a few queries through one user.
  for (const { q } of queries.slice(0, 10))
    await call('GET', `/api/search?q=${encodeURIComponent(q)}`, { as: students[0]?.token });
  let found = 0;
  for (let u = 0; u < USERS; u++) {
    for (let i = 0; i < SEARCHES_PER_USER - (u === 0 ? 10 : 0); i++) {
      const { kind, q } = queries[(u * SEARCHES_PER_USER + i) % queries.length] as { kind: string; q: string };
      found += (await run('student of every class', students[u] as (typeof students)[number], q, kind)) > 0 ? 1 : 0;
      await run('teacher of 1/8 of the classes', teachers[u] as (typeof teachers)[number], q, kind);
    }
  }
  console.log(`\nGET /api/search over real HTTP, one at a time (${found} of the students' searches found something):`);
  for (const [key, list] of [...times.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (key !== 'all') console.log(`  ${key.padEnd(52)} ${summary(list)}`);
  }
  const all = [...(times.get('all') ?? [])].sort((a, b) => a - b);
  console.log(`  ${'all'.padEnd(52)} ${summary(all)}`);
  console.log(
    `\np95 ${percentile(all, 95).toFixed(1)} ms: ${percentile(all, 95) < 50 ? 'under' : 'OVER'} the 50 ms target`,
  );
} finally {
  await server?.stop();
  await mail.close?.();
  if (keep && databaseUrl) console.log(`Database kept: ${benchDb.env.DATABASE_URL}`);
  else await benchDb.drop();
  if (keep) console.log(`Data kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
}
