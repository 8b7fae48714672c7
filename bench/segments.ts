/**
 * bench:segments — how fast the server hands out a 720p HLS segment (with its access check) against nginx
 * serving the same file from the same folder (sendfile, no check), both measured by wrk (2 threads, 50
 * connections) in a process of its own, interleaved; idle, then while a 720p video transcodes. The "fast where it matters"
 * issue wants ≥ 0.9 of nginx. Needs nginx and wrk on PATH (Debian: apt-get install nginx-light wrk).
 *
 * Each run measures the segment two ways: with the session (bearer token on the plain path: a session and class check
 * in the database per request, as before signed tokens) and with the signed token folder the master playlist hands
 * out (an HMAC, no database read). `--storage s3` puts the media in an S3-compatible server (s3rver, started here, a
 * JavaScript server on the same machine: it, not the app, bounds that figure); nginx is the peer on the local disk only.
 * Usage: bun run bench:segments [--seconds 5] [--storage local|s3]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
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
let nginx: ReturnType<typeof Bun.spawn> | undefined;
let bare: ReturnType<typeof Bun.spawn> | undefined;
const s3 = storage === 's3' ? await startS3Server() : undefined;
try {
  // Tokens that outlive the whole bench (the master is read once, at the start).
  server = await startServer({ env: { SMTP_URL: mail.url, SEGMENT_TOKEN_SECONDS: '3600', ...s3?.env() } });
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
  const run = async (label: string) => {
    const server = await load(ours, auth);
    const token = await load(signed);
    console.log(`  ${label}: server with the session ${figures(server)}; with the signed token ${figures(token)}`);
    if (!local) return;
    const peer = await load(theirs);
    const bun = await load(`http://127.0.0.1:${barePort}/`);
    for (const [name, ours] of [
      ['session', server],
      ['token', token],
    ] as const) {
      const ratio = ours.gbps / peer.gbps;
      console.log(
        `    ${name} / nginx ${ratio.toFixed(2)} ${ratio >= 0.9 ? '✓' : '✗'} ≥ 0.9; / bare Bun ${(ours.gbps / bun.gbps).toFixed(2)}`,
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
  await server?.stop();
  await mail.close();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
}
