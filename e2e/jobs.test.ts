import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClip, readBytes, uploadForm } from '../src/test/fixtures';
import { apiClient, signUpWith, signupCookie } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { createAccount, type RunningServer, root, startServer } from './server';

const dataDir = mkdtempSync(join(tmpdir(), 'classroom-restart-'));
const mail = await startMailCapture();
let server: RunningServer | undefined;
afterAll(async () => {
  await server?.stop();
  await mail.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });

test('a video is playable while it transcodes, and a job killed with SIGKILL finishes after a restart', async () => {
  server = await startServer({ dataDir, env: { SMTP_URL: mail.url, JOB_LEASE_SECONDS: '3' } });
  const post = (path: string, body: unknown, token?: string, cookie?: string) =>
    fetch(`${server?.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(cookie ? { cookie } : {}),
      },
      body: JSON.stringify(body),
    });
  const email = 'kill.test@example.test';
  const registered = await post('/api/users/register', {
    username: 'Kim Kill',
    email,
    password: 'password1234',
    role: 'teacher',
  });
  // Verified as the registering browser would: with its `signup` cookie.
  const cookie = signupCookie(registered.headers);
  const otp = await mail.codeFor(email);
  const { body: verified } = await json(await post('/api/users/verify-otp', { email, otp }, undefined, cookie));
  const auth = { authorization: `Bearer ${verified.token}` };

  const clip = await makeClip(dataDir, { width: 1280, height: 720, seconds: 24, name: 'long.mp4' });
  const uploaded = await json(
    await fetch(`${server.baseUrl}/api/upload`, {
      method: 'POST',
      headers: auth,
      body: uploadForm(readBytes(clip), 'long.mp4'),
    }),
  );
  expect(uploaded.status).toBe(201);
  const videoId = uploaded.body.videoId as string;
  const status = async () =>
    (await json(await fetch(`${server?.baseUrl}/api/videos/${videoId}`, { headers: auth }))).body;

  // Playable before it is done: the master and the growing rung playlists are served.
  let video = await status();
  const deadline = Date.now() + 60_000;
  while (!(video.status === 'processing' && video.playable) && Date.now() < deadline) {
    expect(video.status).not.toBe('ready');
    await Bun.sleep(100);
    video = await status();
  }
  expect(video.status).toBe('processing');
  const master = await fetch(`${server.baseUrl}${uploaded.body.masterPlaylist}`, { headers: auth });
  expect(master.status).toBe(200);
  expect(master.headers.get('cache-control')).toBe('no-cache');
  expect((await master.text()).match(/#EXT-X-STREAM-INF/g)).toHaveLength(3);
  const rung = await fetch(`${server.baseUrl}/media/videos/${videoId}/2/index.m3u8`, { headers: auth });
  const rungText = await rung.text();
  expect(rungText).toContain('seg_00000.m4s');
  expect(rungText).not.toContain('#EXT-X-ENDLIST');
  const segment = await fetch(`${server.baseUrl}/media/videos/${videoId}/2/seg_00000.m4s`, { headers: auth });
  expect(segment.status).toBe(200);

  // kill -9 mid-job, then start again on the same data.
  const killedAt = (await status()).progress;
  expect(killedAt).toBeLessThan(100);
  // The pid is in the attempt's own scratch folder (SCRATCH_DIR/transcodes/<video>/<attempt>), not in the database.
  const videoScratch = join(dataDir, 'scratch', 'transcodes', videoId);
  const [attempt] = readdirSync(videoScratch);
  const ffmpegPid = Number(readFileSync(join(videoScratch, String(attempt), 'ffmpeg.pid'), 'utf8'));
  expect(ffmpegPid).toBeGreaterThan(0);
  await server.kill();
  // ffmpeg outlives a killed server; the next start must stop it before taking the job up again.
  expect(existsSync(`/proc/${ffmpegPid}`)).toBe(true);
  server = await startServer({ dataDir, env: { SMTP_URL: mail.url, JOB_LEASE_SECONDS: '3' } });
  const restartDeadline = Date.now() + 90_000;
  while (!server.logs().includes('taking back') && Date.now() < restartDeadline) await Bun.sleep(100);
  expect(server.logs()).toContain('taking back transcode job');
  // ffmpeg outlived the killed server; taking the job back stopped it first.
  await Bun.sleep(200);
  const stillOurs =
    existsSync(`/proc/${ffmpegPid}/cmdline`) && readFileSync(`/proc/${ffmpegPid}/cmdline`, 'utf8').includes(videoId);
  expect(stillOurs).toBe(false);
  do {
    await Bun.sleep(250);
    video = await status();
  } while (video.status !== 'ready' && video.status !== 'failed' && Date.now() < restartDeadline);
  expect(video.status).toBe('ready');
  // The kill interrupted the attempt; it did not use another one.
  expect(video.attempts).toBe(1);
  const finalRung = await fetch(`${server.baseUrl}/media/videos/${videoId}/2/index.m3u8`, { headers: auth });
  expect(await finalRung.text()).toContain('#EXT-X-ENDLIST');
}, 180_000);

test('with JOBS_IN_PROCESS=false the server only queues; a separate worker process makes the video ready', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-worker-'));
  const env = { SMTP_URL: mail.url, JOBS_IN_PROCESS: 'false', JOB_LEASE_SECONDS: '3' };
  const web = await startServer({ dataDir: dir, env });
  let worker: ReturnType<typeof Bun.spawn> | undefined;
  try {
    const api = apiClient(web.baseUrl);
    const teacher = await signUpWith(api, mail, 'teacher', 'Walt Worker');
    const clip = await makeClip(dir, { width: 320, height: 240, seconds: 2, name: 'w.mp4' });
    const uploaded = await api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'w.mp4'),
    });
    expect(uploaded.status).toBe(201);
    const videoId = uploaded.json.videoId as string;
    await Bun.sleep(1500);
    // Nobody works on it in the server process.
    expect((await api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json.status).toBe('queued');

    worker = Bun.spawn(['bun', join(root, 'src', 'worker.ts')], {
      env: { ...process.env, DATA_DIR: dir, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const deadline = Date.now() + 60_000;
    let video = (await api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json;
    while (video.status !== 'ready' && video.status !== 'failed' && Date.now() < deadline) {
      await Bun.sleep(200);
      video = (await api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json;
    }
    expect(video).toMatchObject({ status: 'ready', attempts: 1, progress: 100 });
    const master = await api('GET', uploaded.json.masterPlaylist, { as: teacher.token });
    expect(master.status).toBe(200);
    expect(master.text).toContain('#EXT-X-STREAM-INF');
  } finally {
    worker?.kill();
    await worker?.exited;
    await web.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

test('classroom serve + classroom worker on one DATA_DIR: serve waits for migrate, a worker killed mid-transcode is replaced', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-roles-'));
  const env = { SMTP_URL: mail.url, JOB_LEASE_SECONDS: '3', TEACHER_SIGNUP: 'open' };
  const main = join(root, 'src', 'main.ts');
  const run = (role: string) =>
    Bun.spawn(['bun', main, role], {
      env: { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
  const workers: ReturnType<typeof run>[] = [];
  let web: RunningServer | undefined;
  try {
    // A new database: serve and worker refuse to start, naming the command that fixes it; migrate does it and exits.
    for (const role of ['serve', 'worker']) {
      const refused = run(role);
      expect(await refused.exited).toBe(1);
      expect(await new Response(refused.stderr).text()).toContain('run `classroom migrate` first');
    }
    const migrate = run('migrate');
    expect(await migrate.exited).toBe(0);
    expect(await new Response(migrate.stdout).text()).toContain('Applied migrations');

    web = await startServer({ dataDir: dir, env, command: ['bun', main, 'serve'] });
    const ready = await fetch(`${web.baseUrl}/api/health/ready`);
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as { role: string; checks: { name: string }[] };
    expect(readiness.role).toBe('serve');
    expect(readiness.checks.map((check) => check.name)).toEqual(['database', 'schema', 'storage', 'data_folder']);

    const api = apiClient(web.baseUrl);
    const teacher = await signUpWith(api, mail, 'teacher', 'Rita Roles');
    const clip = await makeClip(dir, { width: 1280, height: 720, seconds: 24, name: 'roles.mp4' });
    const uploaded = await api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(clip), 'roles.mp4'),
    });
    expect(uploaded.status).toBe(201);
    const videoId = uploaded.json.videoId as string;
    const status = async () => (await api('GET', `/api/videos/${videoId}`, { as: teacher.token })).json;
    await Bun.sleep(1500);
    // serve runs no job and no ffmpeg.
    expect((await status()).status).toBe('queued');
    expect(ffmpegsOf(videoId)).toEqual([]);

    // A worker takes it up; kill -9 mid-transcode; another worker takes it back once the lease ran out.
    workers.push(run('worker'));
    let video = await status();
    const deadline = Date.now() + 60_000;
    while (!(video.status === 'processing' && video.progress > 5) && Date.now() < deadline) {
      await Bun.sleep(100);
      video = await status();
    }
    expect(video.status).toBe('processing');
    workers[0]?.kill('SIGKILL');
    await workers[0]?.exited;
    workers.push(run('worker'));
    const readyDeadline = Date.now() + 120_000;
    do {
      await Bun.sleep(250);
      video = await status();
    } while (video.status !== 'ready' && video.status !== 'failed' && Date.now() < readyDeadline);
    expect(video).toMatchObject({ status: 'ready', attempts: 1, progress: 100 });
    // The killed worker's ffmpeg was stopped by the next worker on this host, and its scratch removed.
    expect(ffmpegsOf(videoId)).toEqual([]);
    expect(existsSync(join(dir, 'scratch', 'transcodes', videoId))).toBe(false);
    const master = await api('GET', uploaded.json.masterPlaylist, { as: teacher.token });
    expect(master.status).toBe(200);

    // A worker serves no HTTP: its health is the exit code of `classroom healthcheck worker`.
    const check = Bun.spawn(['bun', main, 'healthcheck', 'worker'], {
      env: { ...process.env, DATA_DIR: dir, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(await check.exited).toBe(0);
  } finally {
    for (const worker of workers) worker.kill();
    await Promise.all(workers.map((worker) => worker.exited));
    await web?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}, 240_000);

/**
 * The pids of ffmpeg processes transcoding `videoId` (their command line names its original). The slide index's
 * own ffmpeg runs (after the video is ready, at low priority: grey detection frames, or a slide's thumbnail) are
 * not the killed worker's transcode, and are left out.
 */
function ffmpegsOf(videoId: string) {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const slideIndex = commandLine.includes('format=gray') || commandLine.includes('[thumb]');
        return commandLine.includes('ffmpeg') && commandLine.includes(videoId) && !slideIndex;
      } catch {
        return false;
      }
    });
}

test('a shutdown in the middle of a one-shot upload removes its temp file before the process exits', async () => {
  const shutdownDir = mkdtempSync(join(tmpdir(), 'classroom-e2e-shutdown-'));
  const shuttingDown = await startServer({ dataDir: shutdownDir, env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' } });
  try {
    const teacher = await createAccount(shuttingDown, mail, 'Shutdown Teacher', 'teacher');
    const url = new URL(shuttingDown.baseUrl);
    const socket = await Bun.connect({ hostname: url.hostname, port: Number(url.port), socket: { data() {} } });
    const boundary = 'shutdownboundary';
    socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${teacher.token}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="uploadedFile"; filename="long.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    socket.write(new Uint8Array(1024 * 1024));
    // SCRATCH_DIR (default DATA_DIR/scratch) holds the temp files.
    const tmp = join(shutdownDir, 'scratch', 'tmp');
    const deadline = Date.now() + 5000;
    while (!(existsSync(tmp) && readdirSync(tmp).length > 0) && Date.now() < deadline) await Bun.sleep(50);
    expect(readdirSync(tmp).length).toBe(1);
    // SIGTERM while the upload hangs: the server drains, cuts it, removes its temp file and exits.
    await shuttingDown.stop();
    socket.end();
    expect(existsSync(tmp) ? readdirSync(tmp) : []).toEqual([]);
  } finally {
    rmSync(shutdownDir, { recursive: true, force: true });
  }
});
