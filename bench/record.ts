/**
 * bench:record — what recording in the browser costs and how soon a recording is a lecture.
 *
 * 1. Stop → processing, and Stop → first playable segment, for a recording of `--minutes` (10): a WebM shaped like
 *    Chromium's MediaRecorder output (VP8 + Opus written to a pipe, so no duration and no cues) goes through the
 *    real server's tus route as the recorder sends it: every 4-second chunk but the last before Stop, then the last
 *    one with `Upload-Length`. On the normal connection (loopback) and on a 2 Mbit/s uplink (the bytes still to send
 *    at Stop are paced at 2 Mbit/s). Baseline in the same run: recording first and uploading after Stop (how
 *    Opencast Studio works), the same file through the same route.
 * 2. CPU of the recording tab in Chromium (fake camera, fake screen), per way of recording, for `--seconds` (20)
 *    each: camera; screen; screen with the camera bubble drawn into a canvas (one recorder: the way the app records);
 *    screen and camera as two recorders (the other way, composited by ffmpeg on the server). Baseline in the same
 *    run: the same streams shown but not recorded. CPU is every Chromium process's user+system time (the encoder
 *    runs in the renderer or a utility process) over wall time: 100% is one core.
 *
 * Usage: bun run bench:record [--minutes 10] [--seconds 20] [--skip-browser] [--skip-server]
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { getVideo } from '../src/media/state';
import { tools } from '../src/test/fixtures';
import { startHarness } from '../src/test/harness';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const minutes = arg('minutes', 10);
const seconds = arg('seconds', 20);
const CHUNK_SECONDS = 4;
const UPLINK_BITS = 2_000_000;

console.log(
  `bench:record — machine: ${cpus().length} × ${cpus()[0]?.model}; load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);

/** A recording as Chromium's MediaRecorder writes it: 720p VP8 at the recorder's bit rate, Opus, no duration. */
async function recordingFile(): Promise<string> {
  const path = join(tmpdir(), `classroom-bench-recording-${minutes}m.webm`);
  if (existsSync(path) && statSync(path).size > 0) return path;
  const started = performance.now();
  const ffmpeg = Bun.spawn(
    [
      tools.ffmpegPath,
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', String(minutes * 60), '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8'],
      ...['-b:v', '1500k', '-c:a', 'libopus', '-b:a', '96k', '-f', 'webm', 'pipe:1'],
    ],
    { stdout: Bun.file(path), stderr: 'inherit' },
  );
  if ((await ffmpeg.exited) !== 0) throw new Error('ffmpeg could not make the recording');
  console.log(`  made the ${minutes}-minute recording in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return path;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** A body sent at `bitsPerSecond` (undefined: as fast as the loopback goes). */
function paced(bytes: Uint8Array, bitsPerSecond?: number): BodyInit {
  if (!bitsPerSecond) return new Blob([bytes as Uint8Array<ArrayBuffer>]);
  const slice = Math.max(1, Math.round(bitsPerSecond / 8 / 20));
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (at >= bytes.length) return controller.close();
      await Bun.sleep(50);
      controller.enqueue(bytes.subarray(at, at + slice));
      at += slice;
    },
  });
}

async function serverPart() {
  const file = await recordingFile();
  const bytes = new Uint8Array(readFileSync(file));
  const bitRate = (bytes.length * 8) / (minutes * 60);
  const chunkBytes = Math.round((bytes.length * CHUNK_SECONDS) / (minutes * 60));
  console.log(
    `\n1. A ${minutes}-minute recording: ${(bytes.length / 1e6).toFixed(1)} MB, ${(bitRate / 1e6).toFixed(2)} Mbit/s; chunks of ${CHUNK_SECONDS} s (${(chunkBytes / 1e3).toFixed(0)} kB)`,
  );
  const harness = await startHarness();
  try {
    const teacher = await harness.signUp('teacher', 'Bench Teacher');
    const course = (
      await harness.api('POST', '/api/courses', { as: teacher.token, body: { courseName: 'Recorded 101' } })
    ).json as { _id: string };
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const tus = async (method: string, path: string, headers: Record<string, string>, body?: BodyInit) => {
      const response = await fetch(`${harness.baseUrl}${path}`, {
        method,
        headers: { 'Tus-Resumable': '1.0.0', Authorization: `Bearer ${teacher.token}`, ...headers },
        body,
        // @ts-expect-error Bun streams a request body given as a stream
        duplex: 'half',
      });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response;
    };
    const create = async (deferred: boolean) => {
      const metadata = [`filename ${b64('recording.webm')}`, `filetype ${b64('video/webm')}`];
      const headers: Record<string, string> = deferred
        ? {
            'Upload-Defer-Length': '1',
            'Upload-Metadata': [...metadata, `recording ${b64('1')}`, `courseId ${b64(course._id)}`].join(','),
          }
        : { 'Upload-Length': String(bytes.length), 'Upload-Metadata': metadata.join(',') };
      const location = (await tus('POST', '/api/uploads', headers)).headers.get('Location') ?? '';
      return location.startsWith('http') ? new URL(location).pathname : location;
    };
    const patch = (path: string, offset: number, body: Uint8Array, extra: Record<string, string> = {}, bits?: number) =>
      tus(
        'PATCH',
        path,
        {
          'Content-Type': 'application/offset+octet-stream',
          'Upload-Offset': String(offset),
          'Content-Length': String(body.length),
          ...extra,
        },
        paced(body, bits),
      );
    /** Stop → the server has the whole file and its transcode is queued; then → its first playable segment. */
    const afterStop = async (path: string, stopAt: number) => {
      const processingAt = performance.now();
      const id = path.split('/').at(-1) ?? '';
      const answer = await (await tus('GET', path, {})).json();
      if (!answer.videoId) throw new Error(`no video after the last byte: ${JSON.stringify(answer)}`);
      let row = await getVideo(harness.db, id);
      while (!row?.firstPlayableAt) {
        if (row?.status === 'failed') throw new Error('the recording failed to transcode');
        await Bun.sleep(20);
        row = await getVideo(harness.db, id);
      }
      const startedAt = performance.timeOrigin + stopAt;
      const figures = {
        processing: (processingAt - stopAt) / 1000,
        playable: (row.firstPlayableAt - startedAt) / 1000,
      };
      // Discard it (as the recorder's Discard does), which stops its transcode, so the runs do not overlap.
      await tus('DELETE', `/api/videos/${id}`, {});
      await harness.jobsSettled(120_000);
      return figures;
    };

    const recorded = async (bits?: number) => {
      const path = await create(true);
      const tail = bytes.length - chunkBytes;
      for (let offset = 0; offset < tail; offset += chunkBytes) {
        await patch(path, offset, bytes.subarray(offset, Math.min(offset + chunkBytes, tail)));
      }
      // What is still to send at Stop: the last chunk, and whatever the uplink had not kept up with.
      const behind = bits && bitRate > bits ? Math.round(((bitRate - bits) * minutes * 60) / 8) : 0;
      const from = Math.max(0, tail - behind);
      const stopAt = performance.now();
      if (behind) {
        const head = await tus('HEAD', path, {});
        if (Number(head.headers.get('Upload-Offset')) < from) throw new Error('offset went backwards');
      }
      await patch(path, from, bytes.subarray(from), { 'Upload-Length': String(bytes.length) }, bits);
      return afterStop(path, stopAt);
    };
    const afterwards = async () => {
      const stopAt = performance.now();
      const path = await create(false);
      await patch(path, 0, bytes);
      return afterStop(path, stopAt);
    };

    const runs = 3;
    const normal: { processing: number; playable: number }[] = [];
    const slow: { processing: number; playable: number }[] = [];
    const base: { processing: number; playable: number }[] = [];
    for (let run = 0; run < runs; run++) {
      base.push(await afterwards());
      normal.push(await recorded());
      slow.push(await recorded(UPLINK_BITS));
    }
    const line = (label: string, list: { processing: number; playable: number }[]) => {
      const processing = median(list.map((f) => f.processing));
      const playable = median(list.map((f) => f.playable));
      console.log(
        `  ${label.padEnd(44)} Stop → processing ${processing.toFixed(2)} s, Stop → first playable ${playable.toFixed(2)} s (median of ${list.length})`,
      );
      return { processing, playable };
    };
    const b = line('baseline: upload after Stop (loopback)', base);
    const n = line('uploaded while recording (loopback)', normal);
    const s = line('uploaded while recording (2 Mbit/s up)', slow);
    console.log(
      `  ratio to baseline: Stop → processing ${(n.processing / b.processing).toFixed(3)} (loopback), Stop → first playable ${(n.playable / b.playable).toFixed(3)}`,
    );
    const wholeAt2 = (bytes.length * 8) / UPLINK_BITS;
    console.log(
      `  at 2 Mbit/s up the baseline would first send the whole file after Stop: ${wholeAt2.toFixed(0)} s, against ${s.processing.toFixed(2)} s (${(s.processing / wholeAt2).toFixed(4)}×)`,
    );
    console.log(`  goal: Stop → processing under 5 s on a normal connection: ${n.processing < 5 ? 'met' : 'NOT met'}`);
  } finally {
    await harness.close();
  }
}

/** User + system CPU seconds of a process and every process under it. */
function cpuSecondsOfTree(root: number): number {
  const parents = new Map<number, number>();
  const times = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(name), Number(fields[1]));
      times.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // the process ended while we read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid; at && at > 1; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, used] of times) if (pid !== root && inTree(pid)) ticks += used;
  return ticks / 100;
}

/** The page's ways of recording, as plain browser code: what the app's recorder does, one way each. */
const PAGE = `<!doctype html><title>record</title><body style="margin:0">
<video id="screen" muted autoplay playsinline width="320"></video><video id="camera" muted autoplay playsinline width="160"></video>
<script src="/compose.js"></script>
<script>
const options = { mimeType: 'video/webm;codecs=vp8,opus', videoBitsPerSecond: 1500000, audioBitsPerSecond: 96000 };
let stop = () => {};
window.startMode = async (mode) => {
  const camera = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: true });
  const screen = mode === 'camera' ? null : await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: 30 } });
  document.getElementById('camera').srcObject = camera;
  if (screen) document.getElementById('screen').srcObject = screen;
  const mic = camera.getAudioTracks();
  const recorders = [];
  const record = (tracks) => {
    const recorder = new MediaRecorder(new MediaStream(tracks), options);
    recorder.ondataavailable = () => {};
    recorder.start(4000);
    recorders.push(recorder);
  };
  if (mode === 'camera') record([...camera.getVideoTracks(), ...mic]);
  if (mode === 'screen') record([...screen.getVideoTracks(), ...mic]);
  let composed = null;
  if (mode === 'bubble') {
    // The app's own composition (web/src/features/recording/state/compose.ts), bundled into /compose.js.
    composed = await window.composeScreenWithBubble(screen, new MediaStream(camera.getVideoTracks()), new MediaStream(mic), () => window.DEFAULT_BUBBLE);
    record(composed.stream.getTracks());
  }
  if (mode === 'two') {
    record([...screen.getVideoTracks(), ...mic]);
    record([...camera.getVideoTracks()]);
  }
  stop = () => {
    composed?.stop();
    for (const recorder of recorders) recorder.stop();
    for (const track of [...camera.getTracks(), ...(screen ? screen.getTracks() : [])]) track.stop();
  };
  return recorders.length;
};
window.stopMode = () => stop();
</script>`;

async function browserPart() {
  const built = await Bun.build({ entrypoints: [join(import.meta.dir, 'record-page.ts')], minify: true });
  if (!built.success) throw new Error(built.logs.join('\n'));
  const composeJs = await built.outputs[0].text();
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) =>
      new URL(request.url).pathname === '/compose.js'
        ? new Response(composeJs, { headers: { 'content-type': 'text/javascript' } })
        : new Response(PAGE, { headers: { 'content-type': 'text/html' } }),
  });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--auto-select-desktop-capture-source=Entire screen',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
  // Playwright starts Chromium as a child of this process: every process under ours but ours is the browser's.
  const pid = process.pid;
  console.log(
    `\n2. CPU of Chromium while recording (${seconds} s each after 3 s of warm-up, fake 640×480 camera, fake 1280×720 screen; 100% = one core)`,
  );
  try {
    const modes = [
      ['preview', 'baseline: camera and screen shown, nothing recorded'],
      ['camera', 'camera'],
      ['screen', 'screen'],
      ['bubble', 'screen + camera bubble, one canvas, one recorder'],
      ['two', 'screen and camera, two recorders'],
    ] as const;
    const share = new Map<string, number[]>();
    for (let round = 0; round < 3; round++) {
      for (const [mode] of modes) {
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${server.port}/`);
        page.on('pageerror', (error) => console.log(`  page error (${mode}): ${error.message}`));
        await Promise.race([
          page.evaluate((m) => (window as unknown as { startMode(m: string): Promise<number> }).startMode(m), mode),
          Bun.sleep(20_000).then(() => {
            throw new Error(`${mode}: the page did not start recording in 20 s`);
          }),
        ]);
        await Bun.sleep(3000);
        const before = cpuSecondsOfTree(pid);
        const started = performance.now();
        await Bun.sleep(seconds * 1000);
        const used = cpuSecondsOfTree(pid) - before;
        const wall = (performance.now() - started) / 1000;
        await page.evaluate(() => (window as unknown as { stopMode(): void }).stopMode());
        await page.close();
        share.set(mode, [...(share.get(mode) ?? []), (used / wall) * 100]);
      }
    }
    const of = (mode: string) => median(share.get(mode) ?? []);
    for (const [mode, label] of modes) {
      console.log(
        `  ${label.padEnd(52)} ${of(mode).toFixed(0).padStart(4)}% (rounds: ${(share.get(mode) ?? []).map((v) => v.toFixed(0)).join(', ')})`,
      );
    }
    console.log(
      `  ratios: bubble / screen ${(of('bubble') / of('screen')).toFixed(2)}, two recorders / bubble ${(of('two') / of('bubble')).toFixed(2)}, bubble / baseline ${(of('bubble') / of('preview')).toFixed(2)}`,
    );
  } finally {
    await browser.close();
    server.stop(true);
  }
}

if (!process.argv.includes('--skip-browser')) await browserPart();
if (!process.argv.includes('--skip-server')) await serverPart();
