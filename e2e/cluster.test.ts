import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQL } from 'bun';
import { startTestCluster, type TestCluster } from '../scripts/test-postgres';
import { loadConfig } from '../src/config';
import { startS3Server } from '../src/storage/test-s3-server';
import { makeClip, makePng, readBytes, uploadForm } from '../src/test/fixtures';
import { apiClient, signUpWith, signupCookie, TEST_PASSWORD } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { launchBrowser } from './browser';
import { type RunningServer, root, screenshot, startServer } from './server';

/**
 * The big setup, end to end: PostgreSQL and an S3-compatible store, `classroom migrate` once, two `classroom serve`
 * processes and a `classroom worker`, each with its own empty DATA_DIR. These are exactly the commands and settings
 * of the compose file in docs/scale.md.
 */
const main = join(root, 'src', 'main.ts');
const clips = mkdtempSync(join(tmpdir(), 'classroom-cluster-clips-'));
const dataDirs: string[] = [];
let postgres: TestCluster;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
let shared: Record<string, string>;
let serveA: RunningServer;
let serveB: RunningServer;
const workers: ReturnType<typeof Bun.spawn>[] = [];
let firstWorker: { child: ReturnType<typeof Bun.spawn>; dataDir: string };

/** Settings only this test sets: a short lease so the killed worker's job comes back quickly, a quiet log. */
const TEST_ONLY = { JOB_LEASE_SECONDS: '3', LOG_LEVEL: 'warn' };

const newDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-cluster-'));
  dataDirs.push(dir);
  return dir;
};

function startWorker(dataDir = newDataDir()) {
  const child = Bun.spawn(['bun', main, 'worker'], {
    env: { ...process.env, ...shared, DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  workers.push(child);
  return { child, dataDir };
}

beforeAll(async () => {
  postgres = await startTestCluster();
  s3 = await startS3Server();
  mail = await startMailCapture();
  shared = {
    DATABASE_URL: await createDatabase('classroom'),
    JWT_SECRET: 'cluster-test-secret-that-is-long-enough-0123456789',
    ...s3.env('school'),
    SMTP_URL: mail.url,
    TEACHER_SIGNUP: 'open',
    ...TEST_ONLY,
  };
  expect((await run(['bun', main, 'migrate'], { ...shared, DATA_DIR: newDataDir() })).code).toBe(0);
  // LOG_LEVEL=warn would hide the "listening on" line startServer waits for.
  const serveEnv = { ...shared, LOG_LEVEL: 'info' };
  serveA = await startServer({ command: ['bun', main, 'serve'], env: serveEnv, dataDir: newDataDir() });
  serveB = await startServer({ command: ['bun', main, 'serve'], env: serveEnv, dataDir: newDataDir() });
  firstWorker = startWorker();
}, 120_000);

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await serveA?.stop();
  await serveB?.stop();
  await mail?.close();
  await s3?.close();
  postgres?.stop();
  for (const dir of [...dataDirs, clips]) rmSync(dir, { recursive: true, force: true });
});

/** Signs a teacher up on A and verifies on B (the same browser, so with its sign-up cookie). */
async function teacherAcrossServers(name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}@school.example`;
  const registered = await apiClient(serveA.baseUrl)('POST', '/api/users/register', {
    body: { username: name, email, password: TEST_PASSWORD, role: 'teacher' },
  });
  expect(registered.status).toBe(201);
  const otp = await mail.codeFor(email);
  const verified = await apiClient(serveB.baseUrl)('POST', '/api/users/verify-otp', {
    body: { email, otp },
    headers: { cookie: signupCookie(registered.headers) ?? '' },
  });
  expect(verified.status).toBe(200);
  return { email, token: verified.json.token as string };
}

async function waitForVideo(baseUrl: string, token: string, videoId: string, until: (video: any) => boolean) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const video = (await apiClient(baseUrl)('GET', `/api/videos/${videoId}`, { as: token })).json;
    if (until(video)) return video;
    if (Date.now() > deadline) throw new Error(`video ${videoId} stuck at ${JSON.stringify(video)}`);
    await Bun.sleep(250);
  }
}

/** A new empty database on the test's PostgreSQL server; answers its URL. */
async function createDatabase(name: string) {
  const admin = new SQL(postgres.url, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

/**
 * Runs a command to its end, with what it printed. Spawned, not spawnSync: the S3 server a command may talk to runs
 * in this test's own event loop.
 */
async function run(command: string[], env: Record<string, string> = {}) {
  const child = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, out, err };
}

/** What a pupil of the class sees through a server: classes, lectures, notes and profile. */
async function schoolAsSeen(baseUrl: string, token: string, courseId: string) {
  const call = apiClient(baseUrl);
  return {
    classes: (await call('GET', '/api/courses', { as: token })).json,
    lectures: (await call('GET', `/api/lectures/course/${courseId}`, { as: token })).json,
    notes: (await call('GET', `/api/enrollments/${courseId}/notes`, { as: token })).json,
    me: (await call('GET', '/api/users', { as: token })).json,
  };
}

/** Every file under a folder, with its size. */
function filesUnder(dir: string): { path: string; size: number }[] {
  const found: { path: string; size: number }[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) found.push({ path: full, size: statSync(full).size });
    }
  };
  walk(dir);
  return found;
}

test('sign up on one server, verify on the other: one session works on both', async () => {
  const teacher = await teacherAcrossServers('Sam Signup');
  for (const server of [serveA, serveB]) {
    const me = await apiClient(server.baseUrl)('GET', '/api/users', { as: teacher.token });
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(teacher.email);
  }
  // Signing out on A ends the session on B too.
  expect((await apiClient(serveA.baseUrl)('POST', '/api/users/logout', { as: teacher.token })).status).toBe(200);
  expect((await apiClient(serveB.baseUrl)('GET', '/api/users', { as: teacher.token })).status).toBe(401);
});

test('upload through one server, watch through the other in Chromium; a worker killed mid-transcode is replaced', async () => {
  const teacher = await teacherAcrossServers('Una Upload');
  const a = apiClient(serveA.baseUrl);
  const b = apiClient(serveB.baseUrl);
  const course = (await a('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Optics', semester: 1 } }))
    .json;
  const clip = await makeClip(clips, { width: 1280, height: 720, seconds: 24, name: 'long.mp4' });
  const uploaded = await a('POST', '/api/upload', { as: teacher.token, body: uploadForm(readBytes(clip), 'long.mp4') });
  expect(uploaded.status).toBe(201);
  const videoId = uploaded.json.videoId as string;
  const lecture = await a('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId: course._id, nameOfTopic: 'Refraction', videoLink: uploaded.json.masterPlaylist },
  });
  expect(lecture.status).toBe(201);

  // Playable while it transcodes, through the other server: the worker publishes segments to the store as it goes.
  await waitForVideo(serveB.baseUrl, teacher.token, videoId, (video) => video.playable === true);
  const master = await b('GET', uploaded.json.masterPlaylist, { as: teacher.token });
  expect(master.status).toBe(200);
  const rungPath = master.text.split('\n').find((line) => line.endsWith('.m3u8') && !line.startsWith('#'));
  expect(rungPath).toBeString();
  const rungUrl = new URL(rungPath as string, `${serveB.baseUrl}${uploaded.json.masterPlaylist}`);
  const rung = await fetch(rungUrl, { headers: { authorization: `Bearer ${teacher.token}` } });
  const rungText = await rung.text();
  expect(rungText).toContain('.m4s');

  // The worker's host is lost: kill -9 it (and its ffmpeg, which would die with the host).
  const first = firstWorker.child;
  const progressAtKill = (await b('GET', `/api/videos/${videoId}`, { as: teacher.token })).json.progress;
  expect(progressAtKill).toBeLessThan(100);
  first.kill('SIGKILL');
  await first.exited;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(videoId)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already
    }
  }
  startWorker();
  const ready = await waitForVideo(serveA.baseUrl, teacher.token, videoId, (video) =>
    ['ready', 'failed'].includes(video.status),
  );
  expect(ready.status).toBe('ready');

  // A pupil watches through B in a real browser.
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'token', value: teacher.token, url: serveB.baseUrl }]);
    const page = await context.newPage();
    await page.goto(`${serveB.baseUrl}/classroom/${course._id}`);
    await page.getByRole('button', { name: 'Play', exact: true }).first().click();
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, undefined, {
      timeout: 30_000,
    });
    await screenshot(page, 'cluster-watch-on-b');
    await context.close();
  } finally {
    await browser.close();
  }

  // The lost host comes back: its worker clears the dead attempt's scratch before it takes any work.
  startWorker(firstWorker.dataDir);
  const mediaOnDisks = () =>
    dataDirs
      .flatMap(filesUnder)
      .filter(({ path }) => /\.(m4s|m3u8|mp4|vtt|webp|jpe?g|png)$/.test(path) || path.includes(videoId));
  const deadline = Date.now() + 20_000;
  while (mediaOnDisks().length > 0 && Date.now() < deadline) await Bun.sleep(200);
  // Nothing of the media stayed on any server's or worker's disk: it is all in the object store.
  expect(mediaOnDisks()).toEqual([]);
  expect(s3.objectCount()).toBeGreaterThan(10);
}, 300_000);

test('failed logins spread over both servers lock the account as one server would', async () => {
  const teacher = await teacherAcrossServers('Lou Lockout');
  const servers = [apiClient(serveA.baseUrl), apiClient(serveB.baseUrl)];
  const answers: number[] = [];
  for (let i = 0; i < 10; i++) {
    const answer = await servers[i % 2]('POST', '/api/users/login', {
      body: { email: teacher.email, password: 'not the password' },
    });
    answers.push(answer.status);
  }
  expect(answers).toEqual(Array(10).fill(401));
  for (const server of servers) {
    const locked = await server('POST', '/api/users/login', {
      body: { email: teacher.email, password: TEST_PASSWORD },
    });
    expect(locked.status).toBe(429);
  }
});

test("docs/scale.md's compose file parses and runs exactly this test's roles and settings", async () => {
  const doc = readFileSync(join(root, 'docs', 'scale.md'), 'utf8');
  const block = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1];
  expect(block).toBeString();
  const compose = Bun.YAML.parse(block as string) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string>; image?: string }>;
  };
  const { services } = compose;
  const commands = Object.fromEntries(
    Object.entries(services)
      .filter(([, service]) => service.image === 'classroom')
      .map(([name, service]) => [name, service.command]),
  );
  expect(commands).toEqual({
    migrate: ['classroom', 'migrate'],
    serve1: ['classroom', 'serve'],
    serve2: ['classroom', 'serve'],
    worker: ['classroom', 'worker'],
  });
  // Every setting this test gives the cluster is set there too, on every classroom service, and nothing else
  // differs between them.
  const environments = ['migrate', 'serve1', 'serve2', 'worker'].map((name) => services[name].environment ?? {});
  for (const environment of environments) expect(environment).toEqual(environments[0]);
  const testKeys = Object.keys(shared).filter((key) => !(key in TEST_ONLY));
  expect(testKeys.filter((key) => !(key in environments[0]))).toEqual([]);
  // The file's settings are ones the server accepts (it refuses a bad value at start, naming it).
  const dataDir = newDataDir();
  const config = loadConfig({ ...environments[0], DATA_DIR: dataDir });
  expect(config.databaseUrl).toStartWith('postgres://');
  expect(config.storage).toMatchObject({ kind: 's3', bucket: 'classroom' });
  // The proxy balances over both serve processes.
  expect(services.proxy.command?.join(' ')).toContain('--to serve1:3000 --to serve2:3000');
});

test('classroom migrate-data moves a one-box school to PostgreSQL and S3 with nothing lost; pg_dump and pg_restore bring it back', async () => {
  // A school on one box: SQLite and media in its DATA_DIR.
  const oneBoxDir = newDataDir();
  const oneBox = await startServer({ dataDir: oneBoxDir, env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' } });
  const call = apiClient(oneBox.baseUrl);
  const teacher = await signUpWith(call, mail, 'teacher', 'Mona Move');
  const pupil = await signUpWith(call, mail, 'student', 'Pip Move');
  const course = (await call('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Moving house' } })).json;
  await call('POST', '/api/enrollments/join', { as: pupil.token, body: { inviteCode: course.inviteCode } });
  await call('PATCH', `/api/enrollments/${course._id}/notes`, { as: pupil.token, body: { notes: 'Bring boxes' } });
  const picture = new FormData();
  picture.append('profilePicture', new Blob([Buffer.from(await makePng(64, 64))], { type: 'image/png' }), 'me.png');
  expect((await call('POST', '/api/users/profile-picture', { as: pupil.token, body: picture })).status).toBe(200);
  const clip = await makeClip(clips, { width: 640, height: 360, seconds: 4, name: 'move.mp4' });
  const uploaded = await call('POST', '/api/upload', { as: teacher.token, body: uploadForm(readBytes(clip), 'm.mp4') });
  const videoId = uploaded.json.videoId as string;
  await call('POST', '/api/lectures', {
    as: teacher.token,
    body: { courseId: course._id, nameOfTopic: 'Packing', videoLink: uploaded.json.masterPlaylist },
  });
  await waitForVideo(oneBox.baseUrl, teacher.token, videoId, (video) => video.status === 'ready');
  // The slide index runs after the transcode: the school is compared once that job is done, not while it runs
  // (a loaded machine once moved the school with the index still "pending", and the copy rightly read "none").
  const settled = Date.now() + 60_000;
  for (;;) {
    const listed = (await call('GET', `/api/lectures/course/${course._id}`, { as: pupil.token })).json as {
      slideIndex: string | null;
    }[];
    if (listed.every((lecture) => lecture.slideIndex !== 'pending')) break;
    if (Date.now() > settled) throw new Error('the slide index did not finish');
    await Bun.sleep(200);
  }
  const before = await schoolAsSeen(oneBox.baseUrl, pupil.token, course._id);
  await oneBox.stop();

  // Moved with the one-box secret, so everyone stays signed in.
  const target = {
    DATABASE_URL: await createDatabase('moved'),
    JWT_SECRET: readFileSync(join(oneBoxDir, 'jwt-secret'), 'utf8').trim(),
    ...s3.env('moved'),
  };
  const move = () => run(['bun', main, 'migrate-data'], { ...target, DATA_DIR: oneBoxDir });
  const moved = await move();
  expect({ code: moved.code, err: moved.err }).toEqual({ code: 0, err: '' });
  expect(moved.out).toMatch(/Moved \d+ rows and \d+ media files/);
  // A second run refuses: it never merges into a database that has data.
  const again = await move();
  expect(again.code).toBe(1);
  expect(again.err).toContain('is not empty');

  // The big setup serves the same school: same answers, the same sessions, the video and picture from the bucket.
  const big = await startServer({
    command: ['bun', main, 'serve'],
    env: { ...shared, ...target, LOG_LEVEL: 'info' },
    dataDir: newDataDir(),
  });
  try {
    expect(await schoolAsSeen(big.baseUrl, pupil.token, course._id)).toEqual(before);
    const master = await apiClient(big.baseUrl)('GET', uploaded.json.masterPlaylist, { as: pupil.token });
    expect(master.status).toBe(200);
    const rungPath = master.text.split('\n').find((line) => line.endsWith('.m3u8') && !line.startsWith('#'));
    const rung = await fetch(new URL(rungPath as string, `${big.baseUrl}${uploaded.json.masterPlaylist}`), {
      headers: { authorization: `Bearer ${pupil.token}` },
    });
    expect(await rung.text()).toContain('#EXT-X-ENDLIST');
    const avatar = await fetch(`${big.baseUrl}${before.me.profilePictureImageLink}`, {
      headers: { authorization: `Bearer ${pupil.token}` },
    });
    expect(avatar.status).toBe(200);
    expect((await avatar.arrayBuffer()).byteLength).toBeGreaterThan(100);
  } finally {
    await big.stop();
  }

  // docs/operations.md's backup of the big setup: pg_dump while it runs, pg_restore into an empty database, migrate.
  const dump = join(newDataDir(), 'classroom.dump');
  const dumped = await run(['pg_dump', '--format=custom', '--no-owner', `--file=${dump}`, target.DATABASE_URL]);
  expect({ code: dumped.code, err: dumped.err }).toEqual({ code: 0, err: '' });
  const restoredUrl = await createDatabase('classroom_restored');
  const restoredDump = await run(['pg_restore', '--no-owner', `--dbname=${restoredUrl}`, dump]);
  expect({ code: restoredDump.code, err: restoredDump.err }).toEqual({ code: 0, err: '' });
  const migrated = await run(['bun', main, 'migrate'], {
    ...target,
    DATABASE_URL: restoredUrl,
    DATA_DIR: newDataDir(),
  });
  expect(migrated.code).toBe(0);
  const restored = await startServer({
    command: ['bun', main, 'serve'],
    env: { ...shared, ...target, DATABASE_URL: restoredUrl, LOG_LEVEL: 'info' },
    dataDir: newDataDir(),
  });
  try {
    expect(await schoolAsSeen(restored.baseUrl, pupil.token, course._id)).toEqual(before);
  } finally {
    await restored.stop();
  }
}, 240_000);
