/**
 * bench:upload — streams a generated 2 GB multipart upload over loopback to the real server (a child process)
 * and prints throughput and the server's RSS growth, against a bare Bun.serve that reads and discards the same
 * body in the same invocation. The body is zeros, so the server answers "not a video" after storing and probing
 * it: what is measured is receiving and storing. Usage: bun run bench:upload [--mb 2048]
 */
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { createAccount, startServer } from '../e2e/server';
import { startMailCapture } from '../src/test/mail-capture';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const totalMb = arg('mb', 2048);
const CHUNK = 1024 * 1024;
const boundary = 'benchboundary7MA4YWxkTrZu0gW';

function multipartBody(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="uploadedFile"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const chunk = new Uint8Array(CHUNK);
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent === -1) controller.enqueue(head);
      else if (sent < totalMb) controller.enqueue(chunk);
      else if (sent === totalMb) controller.enqueue(tail);
      else controller.close();
      sent += 1;
    },
  });
}

const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

async function send(url: string, headers: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers },
    body: multipartBody(),
    // @ts-expect-error Bun streams a request body given as a stream
    duplex: 'half',
  });
  const text = await response.text();
  return { seconds: (performance.now() - started) / 1000, status: response.status, text };
}

console.log(`bench:upload — ${totalMb} MB over loopback; machine: ${cpus().length} × ${cpus()[0]?.model}`);

// Ceiling: a bare Bun.serve that only reads the body.
const bare = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  maxRequestBodySize: 16 * 1024 ** 3,
  async fetch(request) {
    const reader = request.body?.getReader();
    let bytes = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    return Response.json({ bytes });
  },
});
const ceiling = await send(`http://127.0.0.1:${bare.port}/`, {});
bare.stop(true);

const mail = await startMailCapture();
const server = await startServer({ env: { SMTP_URL: mail.url } });
try {
  const teacher = await createAccount(server, mail, 'Upload Bench', 'teacher');
  await Bun.sleep(500);
  const before = rssMb(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(server.pid));
  }, 50);
  const result = await send(`${server.baseUrl}/api/upload`, { authorization: `Bearer ${teacher.token}` });
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(server.pid));
  const mbps = totalMb / result.seconds;
  const ceilingMbps = totalMb / ceiling.seconds;
  console.log(`  server answer: ${result.status} ${result.text.slice(0, 80)}`);
  console.log(
    `  throughput: ${mbps.toFixed(0)} MB/s (bare Bun.serve reading the same body: ${ceilingMbps.toFixed(0)} MB/s, ratio ${(mbps / ceilingMbps).toFixed(2)})`,
  );
  console.log(
    `  server RSS: ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB, growth ${(peak - before).toFixed(0)} MB (target < 64 MB)`,
  );
} finally {
  await server.stop();
  await mail.close();
}
