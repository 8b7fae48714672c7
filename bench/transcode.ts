/**
 * bench:transcode — the HLS ladder on generated 1080p30 clips: a camera (testsrc2 + sine: every frame moves) and
 * slides (a still picture that changes every 10 s, with sound). For each, in the same invocation and interleaved:
 * today's pipeline (`lecture`: a constant frame rate, 4 fps for a still source, audio encoded once in its own
 * process) against the one before it (`dropped`: repeated frames dropped, a variable frame rate), the one before that
 * (`every`: every frame encoded, audio encoded once per rung) and one ffmpeg per rung (as the original app and
 * PeerTube do). Prints realtime factor, wall and CPU seconds, bytes per rung (video + audio), and SSIM of each rung
 * against the source scaled to that rung; then the time from upload complete to first playable segment through the
 * real server, for both clips. Usage: bun run bench:transcode [--seconds 60] [--runs 1]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Plan, planLadder } from '../src/media/ladder';
import { describeSource } from '../src/media/probe';
import { getVideo } from '../src/media/state';
import { type LadderOptions, runTranscode } from '../src/media/transcode';
import { makeClip, readBytes, tools, uploadForm } from '../src/test/fixtures';
import { startHarness } from '../src/test/harness';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const seconds = arg('seconds', 60);
const runs = arg('runs', 1);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-'));

type Measure = { wall: number; cpu: number; peakMb: number };

async function transcode(plan: Plan, source: string, out: string, options: LadderOptions): Promise<Measure> {
  rmSync(out, { recursive: true, force: true });
  const started = performance.now();
  const result = await runTranscode(
    tools,
    plan,
    source,
    out,
    () => {},
    new AbortController().signal,
    () => {},
    options,
  );
  if (!result.ok) throw new Error(result.reason);
  return { wall: (performance.now() - started) / 1000, cpu: result.usage.cpuSeconds, peakMb: result.usage.peakMb };
}

/** One ffmpeg per rung, each decoding the source again. */
async function separateRuns(plan: Plan, source: string, out: string): Promise<Measure> {
  const total: Measure = { wall: 0, cpu: 0, peakMb: 0 };
  for (const [i, rung] of plan.rungs.entries()) {
    const m = await transcode({ ...plan, rungs: [rung] }, source, join(out, String(i)), { frames: 'every' });
    total.wall += m.wall;
    total.cpu += m.cpu;
    total.peakMb = Math.max(total.peakMb, m.peakMb);
  }
  return total;
}

const rungBytes = (dir: string) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** SSIM of one rung against the source scaled to its size, both at the source's 30 fps (held frames repeat). */
async function ssim(source: string, playlist: string, width: number, height: number): Promise<number> {
  const child = Bun.spawn(
    [
      tools.ffmpegPath,
      '-hide_banner',
      '-nostats',
      '-i',
      playlist,
      '-i',
      source,
      '-lavfi',
      `[0:v]fps=30,setpts=PTS-STARTPTS[a];[1:v]scale=${width}:${height},setsar=1,fps=30,setpts=PTS-STARTPTS[b];[a][b]ssim`,
      '-f',
      'null',
      '-',
    ],
    { stdout: 'ignore', stderr: 'pipe' },
  );
  const stderr = await new Response(child.stderr).text();
  await child.exited;
  const match = / All:([\d.]+)/.exec(stderr);
  if (!match) throw new Error(`no SSIM: ${stderr.slice(-500)}`);
  return Number(match[1]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kbps = (bytes: number) => (bytes * 8) / seconds / 1000;

console.log(
  `bench:transcode — ${seconds}s 1080p30 sources, ${runs} run(s) each; machine: ${cpus().length} × ${cpus()[0]?.model}; load ${loadavg()[0]?.toFixed(1)}`,
);
const clips = {
  camera: `testsrc2=s=1920x1080:r=30:d=${seconds}`,
  slides: `testsrc=s=1920x1080:r=0.1:d=${seconds}`,
};
for (const [label, video] of Object.entries(clips)) {
  const source = await makeClip(work, { width: 1920, height: 1080, seconds, video, crf: 18, name: `${label}.mp4` });
  const info = await describeSource(tools, source);
  if ('refused' in info) throw new Error(info.refused);
  const plan = planLadder(info);
  const ours: Measure[] = [];
  const dropped: Measure[] = [];
  const before: Measure[] = [];
  const separate: Measure[] = [];
  for (let run = 0; run < runs; run++) {
    ours.push(await transcode(plan, source, join(work, label, 'ours'), { frames: 'lecture' }));
    dropped.push(await transcode(plan, source, join(work, label, 'dropped'), { frames: 'dropped' }));
    before.push(await transcode(plan, source, join(work, label, 'before'), { frames: 'every' }));
    separate.push(await separateRuns(plan, source, join(work, label, 'separate')));
  }
  console.log(`\n${label}: ladder ${plan.rungs.map((r) => `${r.width}x${r.height}`).join(', ')}`);
  const line = (name: string, measures: Measure[]) => {
    const wall = median(measures.map((m) => m.wall));
    console.log(
      `  ${name.padEnd(34)} ${wall.toFixed(1).padStart(5)} s wall, ${(seconds / wall).toFixed(2).padStart(5)}× realtime, ${median(measures.map((m) => m.cpu)).toFixed(1)} CPU s, peak ${median(measures.map((m) => m.peakMb)).toFixed(0)} MB`,
    );
    return wall;
  };
  const oursWall = line('lecture (ours, constant rate):', ours);
  const droppedWall = line('dropped (variable rate):', dropped);
  const beforeWall = line('before (every frame, audio × rungs):', before);
  const separateWall = line('one ffmpeg per rung:', separate);
  console.log(
    `  ratio of wall time: ours / dropped ${(oursWall / droppedWall).toFixed(2)}, ours / before ${(oursWall / beforeWall).toFixed(2)}, ours / one per rung ${(oursWall / separateWall).toFixed(2)}`,
  );
  for (const [i, rung] of plan.rungs.entries()) {
    const figures = [];
    for (const kind of ['ours', 'dropped', 'before']) {
      const dir = join(work, label, kind, String(i));
      const bytes = rungBytes(dir);
      const score = await ssim(source, join(dir, 'index.m3u8'), rung.width, rung.height);
      figures.push(`${kind} ${(bytes / 1e6).toFixed(2)} MB (${kbps(bytes).toFixed(0)} kb/s), SSIM ${score.toFixed(4)}`);
    }
    console.log(`  ${rung.name.padEnd(5)} ${figures.join(' | ')}`);
  }
}

// Upload complete → first playable segment (every rung has one), through the real server and worker.
const harness = await startHarness();
try {
  const teacher = await harness.signUp('teacher', 'Bench Teacher');
  for (const label of Object.keys(clips)) {
    const samples: number[] = [];
    for (let run = 0; run < Math.max(3, runs); run++) {
      const uploaded = await harness.api('POST', '/api/upload', {
        as: teacher.token,
        body: uploadForm(readBytes(join(work, `${label}.mp4`)), `${label}.mp4`),
      });
      const answeredAt = Date.now();
      const video = () => getVideo(harness.db, uploaded.json.videoId);
      for (;;) {
        const row = await video();
        if (row?.firstPlayableAt) {
          samples.push((row.firstPlayableAt - answeredAt) / 1000);
          break;
        }
        if (row?.status === 'failed') throw new Error('transcode failed');
        await Bun.sleep(20);
      }
      // Let it finish so runs do not overlap.
      while ((await video())?.status !== 'ready') await Bun.sleep(200);
    }
    console.log(
      `\nupload complete → first playable segment (${label}, every rung, median of ${samples.length}): ${median(samples).toFixed(2)} s (goal ≤ 2 s)`,
    );
  }
} finally {
  await harness.close();
  rmSync(work, { recursive: true, force: true });
}
