/**
 * bench:segments — how fast the server hands out a 720p HLS segment (with its access check) against nginx
 * serving the same file from the same folder (sendfile, no check), both measured by wrk (2 threads, 50
 * connections) in a process of its own, interleaved; idle, then while a 720p video transcodes. The "fast where it matters"
 * issue wants ≥ 0.8 of nginx on the signed path (issue 36). Needs nginx and wrk on PATH (Debian: apt-get install nginx-light wrk).
 *
 * Each run measures the segment two ways: with the session (bearer token on the plain path: a session and class check
 * in the database per request, as before signed tokens) and with the signed token folder the master playlist hands
 * out (an HMAC, no database read). `--storage s3` puts the media in an S3-compatible server (s3rver, started here, a
 * JavaScript server on the same machine: it, not the app, bounds that figure); nginx is the peer on the local disk only.
 * Each figure is the median of `--rounds` (3) rounds, every server and peer loaded once per round, in turn.
 * `--root <checkout>` also runs that checkout's server on the same data folder and secret (the baseline, in the same
 * invocation), so a change to the signed path is shown before and after.
 * Usage: bun run bench:segments [--seconds 5] [--rounds 3] [--storage local|s3] [--root /path/to/checkout]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type RunningServer, startServer } from '../e2e/server';
import { startS3Server } from '../src/storage/test-s3-server';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const option = (name: string) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const seconds = Number(option('--seconds') ?? 5);
const rounds = Number(option('--rounds') ?? 3);
const baselineRoot = option('--root');
const storage = option('--storage') ?? 'local';
if (storage !== 'local' && storage !== 's3') throw new Error('--storage is local or s3');

/** wrk (C, 2 threads) in a process of its own: a Node load generator cannot read megabytes as fast as nginx sends them. */
async function load(url: string, headers: Record<string, string> = {}) {
  const child = Bun.spawn(
    [
      'wrk',
      '-t2',
      '-c50',
      `-d${seconds}s`,
      '--latency',
      ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
      url,
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const out = await new Response(child.stdout).text();
  await child.exited;
  const number = (pattern: RegExp) => Number(pattern.exec(out)?.[1] ?? Number.NaN);
  const unit = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;
  const transfer = /Transfer\/sec:\s+([\d.]+)(KB|MB|GB)/.exec(out);
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    gbps: transfer ? (Number(transfer[1]) * unit[transfer[2] as keyof typeof unit] * 8) / 1e9 : 0,
    p99: p99 ? Number(p99[1]) * (p99[2] === 'us' ? 0.001 : p99[2] === 's' ? 1000 : 1) : Number.NaN,
    bad: number(/Non-2xx or 3xx responses:\s+(\d+)/) || 0,
  };
}

console.log(
  `bench:segments — ${storage} storage, wrk, ${seconds} s per run, 50 connections; machine: ${cpus().length} × ${cpus()[0]?.model}`,
);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-segments-'));
const mail = await startMailCapture();
let server: RunningServer | undefined;
let baseline: RunningServer | undefined;
let nginx: ReturnType<typeof Bun.spawn> | undefined;
let bare: ReturnType<typeof Bun.spawn> | undefined;
const s3 = storage === 's3' ? await startS3Server() : undefined;
try {
  // Tokens that outlive the whole bench (the master is read once, at the start).
  const env = {
    SMTP_URL: mail.url,
    SEGMENT_TOKEN_SECONDS: '3600',
    JWT_SECRET: `bench-segments-${Math.random().toString(36).slice(2)}-secret-of-32-chars`,
    ...s3?.env(),
  };
  server = await startServer({ env });
  const teacher = await createAccount(server, mail, 'Segment Teacher', 'teacher');
  const student = await createAccount(server, mail, 'Segment Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Segments' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const upload = async (clip: string, name: string) => {
    const form = new FormData();
    form.append('uploadedFile', Bun.file(clip));
    form.append('courseId', course._id);
    form.append('nameOfTopic', name);
    return teacher.api('POST', '/api/upload', form);
  };
  const first = await upload(await makeClip(work, { width: 1280, height: 720, seconds: 12 }), 'Test card');
  while ((await teacher.api('GET', `/api/videos/${first.videoId}`)).status !== 'ready') await Bun.sleep(200);
  const segment = `videos/${first.videoId}/2/seg_00000.m4s`;
  const auth = { authorization: `Bearer ${student.token}` };
  const ours = `${server.baseUrl}/media/${segment}`;
  const sample = await fetch(ours, { headers: auth });
  const bytes = (await sample.arrayBuffer()).byteLength;
  if (sample.status !== 200) throw new Error(`the segment answers ${sample.status}`);
  // The token folder the master hands out: the same segment, checked by an HMAC alone.
  const master = await fetch(`${server.baseUrl}/media/videos/${first.videoId}/master.m3u8`, { headers: auth });
  const folder = /^(\d+\.[A-Za-z0-9_-]{22})\//m.exec(await master.text())?.[1];
  if (!folder) throw new Error('no token folder in the master playlist');
  const signed = `${server.baseUrl}/media/videos/${first.videoId}/${folder}/2/seg_00000.m4s`;
  if ((await fetch(signed)).status !== 200) throw new Error('the signed segment does not answer');

  const port = 20000 + Math.floor(Math.random() * 20000);
  const local = storage === 'local';
  const conf = join(work, 'nginx.conf');
  writeFileSync(
    conf,
    `user root; worker_processes auto; daemon off; pid ${join(work, 'nginx.pid')}; error_log ${join(work, 'nginx-error.log')};
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  types { video/iso.segment m4s; }
  server { listen 127.0.0.1:${port}; location /media/ { alias ${server.dataDir}/; } } }
`,
  );
  if (local) nginx = Bun.spawn(['nginx', '-c', conf, '-p', work], { stdout: 'ignore', stderr: 'inherit' });
  // And what Bun itself does with the file: a bare Bun.serve answering it, no check (the ceiling for any Bun app).
  const bareProcess = Bun.spawn(
    [
      'bun',
      '-e',
      `const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(Bun.file(${JSON.stringify(join(server.dataDir, segment))}), { headers: { 'content-type': 'video/iso.segment' } }) }); console.log(s.port);`,
    ],
    { stdout: 'pipe' },
  );
  bare = bareProcess;
  const barePort = new TextDecoder().decode((await bareProcess.stdout.getReader().read()).value).trim();
  await Bun.sleep(500);

  const theirs = `http://127.0.0.1:${port}/media/${segment}`;
  console.log(`  one 720p segment of ${(bytes / 1024).toFixed(0)} KB`);
  const figures = (result: Awaited<ReturnType<typeof load>>) =>
    `${result.gbps.toFixed(2)} Gbit/s (${result.rps.toFixed(0)} req/s, p99 ${result.p99.toFixed(1)} ms)` +
    (result.bad ? ` (${result.bad} not 2xx)` : '');
  if (baselineRoot) {
    baseline = await startServer({
      command: ['bun', join(baselineRoot, 'src', 'main.ts')],
      cwd: baselineRoot,
      env,
      dataDir: server.dataDir,
    });
  }
  const baseSigned = baseline && signed.replace(server.baseUrl, baseline.baseUrl);
  const median = (runs: Awaited<ReturnType<typeof load>>[]) => {
    const pickBy = (key: 'gbps' | 'rps' | 'p99') => runs.map((r) => r[key]).sort((a, b) => a - b)[runs.length >> 1];
    return { gbps: pickBy('gbps'), rps: pickBy('rps'), p99: pickBy('p99'), bad: runs.reduce((n, r) => n + r.bad, 0) };
  };
  const run = async (label: string) => {
    const runs: Record<string, Awaited<ReturnType<typeof load>>[]> = {};
    const add = async (name: string, url: string | undefined, headers: Record<string, string> = {}) => {
      if (!url) return;
      runs[name] = [...(runs[name] ?? []), await load(url, headers)];
    };
    for (let round = 0; round < rounds; round++) {
      await add('token', signed);
      await add('baseline token', baseSigned);
      await add('session', ours, auth);
      if (!local) continue;
      await add('nginx', theirs);
      await add('bun', `http://127.0.0.1:${barePort}/`);
    }
    const m = Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, median(list)]));
    console.log(
      `  ${label} (median of ${rounds}; load ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}): server with the session ${figures(m.session)}; with the signed token ${figures(m.token)}`,
    );
    if (m['baseline token']) {
      console.log(
        `    baseline (${baselineRoot}) signed token ${figures(m['baseline token'])}; this / baseline ${(m.token.gbps / m['baseline token'].gbps).toFixed(2)}`,
      );
    }
    if (!local) return;
    const peer = m.nginx;
    const bun = m.bun;
    for (const [name, mine] of [
      ['session', m.session],
      ['token', m.token],
      ...(m['baseline token'] ? [['baseline token', m['baseline token']] as const] : []),
    ] as const) {
      const ratio = mine.gbps / peer.gbps;
      console.log(
        `    ${name} / nginx ${ratio.toFixed(2)} ${ratio >= 0.8 ? '✓' : '✗'} ≥ 0.8; / bare Bun ${(mine.gbps / bun.gbps).toFixed(2)}`,
      );
    }
    console.log(`    nginx ${figures(peer)}; bare Bun.serve, same file, no check: ${figures(bun)}`);
  };
  await run('idle');
  const busy = await upload(await makeClip(work, { width: 1280, height: 720, seconds: 60, name: 'long.mp4' }), 'Long');
  while ((await teacher.api('GET', `/api/videos/${busy.videoId}`)).status !== 'processing') await Bun.sleep(100);
  await run('during a 720p transcode');
  const still = (await teacher.api('GET', `/api/videos/${busy.videoId}`)).status;
  console.log(`  (the transcode was ${still === 'processing' ? 'still running' : still} at the end)`);
} finally {
  nginx?.kill();
  bare?.kill();
  await baseline?.stop();
  await server?.stop();
  await mail.close();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
}
