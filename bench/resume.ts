/**
 * bench:resume — a generated video of about 1 GB uploaded with tus-js-client (50 MB chunks, as the web app sends)
 * through a proxy that drops every connection at 30% and at 70% of the bytes: it completes, the bytes carried
 * are compared with the file (target ≤ 1.05×), and the result plays (its first segment is served). Then the
 * same file over loopback without the proxy, by tus and by the one-shot `POST /api/upload`, in the same run:
 * throughput ratio, and the server's memory growth during each (target under 64 MB).
 * Usage: bun run bench:resume [--mb 1024]
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tus from 'tus-js-client';
import { createAccount, startServer } from '../e2e/server';
import { startCuttingProxy } from '../src/test/cutting-proxy';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const targetMb = arg('mb', 1024);
const CHUNK_BYTES = 50 * 1024 * 1024;

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Lossless x264 of noisy test video: about 90 MB per second of 1080p, so the size is set by the duration. */
const makeBigVideo = (dir: string, megabytes: number) =>
  makeClip(dir, {
    width: 1920,
    height: 1080,
    seconds: Math.max(2, Math.round(megabytes / 90)),
    crf: 0,
    noise: true,
    name: 'big-lecture.mp4',
  });

function tusUpload(
  endpoint: string,
  path: string,
  token: string,
  onProgress: (sent: number) => void = () => {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(path), {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 500, 1000, 2000, 3000, 5000, 10000],
      uploadSize: statSync(path).size,
      metadata: { filename: 'big-lecture.mp4', filetype: 'video/mp4' },
      headers: { authorization: `Bearer ${token}` },
      onProgress,
      onError: reject,
      onSuccess: () => resolve(upload.url?.split('/').pop() ?? ''),
    });
    upload.start();
  });
}

/** Samples the server's RSS every 100 ms while `work` runs; answers the growth over the starting value. */
async function withMemory<T>(pid: number, work: () => Promise<T>) {
  const start = rssMb(pid);
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  try {
    const value = await work();
    return { value, growth: peak - start };
  } finally {
    clearInterval(timer);
  }
}

console.log(`bench:resume — machine: ${cpus().length} × ${cpus()[0]?.model}`);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-resume-'));
const mail = await startMailCapture();
const server = await startServer({ env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' } });
try {
  const teacher = await createAccount(server, mail, 'Bench Teacher', 'teacher');
  const started = performance.now();
  const file = await makeBigVideo(work, targetMb);
  const size = statSync(file).size;
  console.log(`  source: ${mb(size)} lossless 1080p, made in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  // 1. Through a proxy that drops every connection at 30% and 70% of the file.
  const proxy = await startCuttingProxy({ hostname: '127.0.0.1', port: Number(new URL(server.baseUrl).port) });
  const cuts = [0.3, 0.7];
  const cutAt: number[] = [];
  const resumedStart = performance.now();
  const watch = setInterval(() => {
    if (cuts.length > 0 && proxy.bytesUp() >= size * (cuts[0] as number)) {
      cutAt.push(proxy.bytesUp());
      cuts.shift();
      proxy.cut(1000);
    }
  }, 5);
  const resumedId = await tusUpload(`${proxy.baseUrl}/api/uploads`, file, teacher.token);
  clearInterval(watch);
  const resumedSeconds = (performance.now() - resumedStart) / 1000;
  const carried = proxy.bytesUp();
  proxy.stop();
  console.log(
    `  cut ${cutAt.length}× (at ${cutAt.map((b) => `${((b / size) * 100).toFixed(0)}%`).join(', ')}): completed in ${resumedSeconds.toFixed(1)} s; ` +
      `bytes carried ${(carried / size).toFixed(3)}× the file (target ≤ 1.05)`,
  );
  const deadline = Date.now() + 600_000;
  for (;;) {
    const video = await teacher.api('GET', `/api/videos/${resumedId}`);
    if (video.playable) break;
    if (video.status === 'failed' || Date.now() > deadline)
      throw new Error(`the resumed video did not play: ${video.error}`);
    await Bun.sleep(500);
  }
  const segment = await fetch(`${server.baseUrl}/media/videos/${resumedId}/0/index.m3u8`, {
    headers: { authorization: `Bearer ${teacher.token}` },
  });
  console.log(`  the resumed upload plays: its first rung's playlist answers ${segment.status}`);

  // 2. Loopback, no proxy: tus against the one-shot multipart upload, same file, same run.
  const viaTus = await withMemory(server.pid, async () => {
    const t0 = performance.now();
    await tusUpload(`${server.baseUrl}/api/uploads`, file, teacher.token);
    return (performance.now() - t0) / 1000;
  });
  const viaPost = await withMemory(server.pid, async () => {
    const t0 = performance.now();
    const form = new FormData();
    form.append('uploadedFile', Bun.file(file), 'big-lecture.mp4');
    const answer = await fetch(`${server.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${teacher.token}` },
      body: form,
    });
    if (answer.status !== 201) throw new Error(`POST /api/upload: ${answer.status} ${await answer.text()}`);
    return (performance.now() - t0) / 1000;
  });
  const rate = (seconds: number) => `${(size / 1024 / 1024 / seconds).toFixed(0)} MB/s`;
  console.log(`  tus (50 MB chunks): ${rate(viaTus.value)}, server memory +${viaTus.growth.toFixed(0)} MB`);
  console.log(`  POST /api/upload:   ${rate(viaPost.value)}, server memory +${viaPost.growth.toFixed(0)} MB`);
  console.log(`  ratio tus / POST: ${(viaPost.value / viaTus.value).toFixed(2)} of the throughput`);
} finally {
  await server.stop();
  await mail.close();
  rmSync(work, { recursive: true, force: true });
}
