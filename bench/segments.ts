/**
 * bench:segments — how fast the server hands out a 720p HLS segment (with its access check) against nginx
 * serving the same file from the same folder (sendfile, no check), both measured by wrk (2 threads, 50
 * connections) in a process of its own, interleaved; idle, then while a 720p video transcodes. The "fast where it matters"
 * issue wants ≥ 0.9 of nginx. Needs nginx and wrk on PATH (Debian: apt-get install nginx-light wrk).
 * Usage: bun run bench:segments [--seconds 5]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type RunningServer, startServer } from '../e2e/server';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const index = process.argv.indexOf('--seconds');
const seconds = index > 0 ? Number(process.argv[index + 1]) : 5;

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
  `bench:segments — wrk, ${seconds} s per run, 50 connections; machine: ${cpus().length} × ${cpus()[0]?.model}`,
);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-segments-'));
const mail = await startMailCapture();
let server: RunningServer | undefined;
let nginx: ReturnType<typeof Bun.spawn> | undefined;
let bare: ReturnType<typeof Bun.spawn> | undefined;
try {
  server = await startServer({ env: { SMTP_URL: mail.url } });
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
  const bytes = statSync(join(server.dataDir, segment)).size;

  const port = 20000 + Math.floor(Math.random() * 20000);
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
  nginx = Bun.spawn(['nginx', '-c', conf, '-p', work], { stdout: 'ignore', stderr: 'inherit' });
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

  const ours = `${server.baseUrl}/media/${segment}`;
  const theirs = `http://127.0.0.1:${port}/media/${segment}`;
  const auth = { authorization: `Bearer ${student.token}` };
  console.log(`  one 720p segment of ${(bytes / 1024).toFixed(0)} KB`);
  const run = async (label: string) => {
    const server = await load(ours, auth);
    const peer = await load(theirs);
    const bun = await load(`http://127.0.0.1:${barePort}/`);
    const ratio = server.gbps / peer.gbps;
    console.log(
      `  ${label}: server ${server.gbps.toFixed(2)} Gbit/s (${server.rps.toFixed(0)} req/s, p99 ${server.p99.toFixed(1)} ms); ` +
        `nginx ${peer.gbps.toFixed(2)} Gbit/s (${peer.rps.toFixed(0)} req/s, p99 ${peer.p99.toFixed(1)} ms); ratio ${ratio.toFixed(2)} ` +
        `${ratio >= 0.9 ? '✓' : '✗'} ≥ 0.9${server.bad + peer.bad ? ` (${server.bad}/${peer.bad} not 2xx)` : ''}`,
    );
    console.log(
      `    bare Bun.serve, same file, no check: ${bun.gbps.toFixed(2)} Gbit/s (${bun.rps.toFixed(0)} req/s): ` +
        `server / bare Bun ${(server.gbps / bun.gbps).toFixed(2)}, bare Bun / nginx ${(bun.gbps / peer.gbps).toFixed(2)}`,
    );
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
  rmSync(work, { recursive: true, force: true });
}
