/**
 * bench:transcode — the HLS ladder pipeline on generated 60-second 1080p30 clips (testsrc2 + sine: the hard
 * case; slides: mostly static, the common case). Prints, per clip: realtime factor, wall and CPU seconds,
 * peak memory of ffmpeg, and the ratio against three separate ffmpeg runs (one per rung, as the original app
 * and PeerTube do) measured in the same invocation; then the time from upload complete to first playable
 * segment through the real server. Usage: bun run bench:transcode [--seconds 60] [--runs 1]
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLadder } from '../src/media/ladder';
import { describeSource } from '../src/media/probe';
import { getVideo } from '../src/media/state';
import { FFMPEG_NICE, transcodeArgs } from '../src/media/transcode';
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

async function timed(argv: string[]): Promise<Measure> {
  const started = performance.now();
  const child = Bun.spawn(['nice', '-n', String(FFMPEG_NICE), ...argv], { stdout: 'ignore', stderr: 'pipe' });
  const stderr = await new Response(child.stderr).text();
  if ((await child.exited) !== 0) throw new Error(stderr);
  const usage = child.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : Number.NaN;
  return { wall: (performance.now() - started) / 1000, cpu, peakMb: usage ? usage.maxRSS / 1024 / 1024 : Number.NaN };
}

const makeSource = (name: string, video: string) =>
  makeClip(work, { width: 1920, height: 1080, seconds, video, crf: 18, name: `${name}.mp4` });

/** The usual way: one ffmpeg per rung, each decoding the source again. */
function separateRunArgs(source: string, out: string, plan: ReturnType<typeof planLadder>, rung: number): string[] {
  const one = { ...plan, rungs: [plan.rungs[rung]] };
  return transcodeArgs(tools, one, source, join(out, `separate-${rung}`));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(
  `bench:transcode — ${seconds}s 1080p30 sources, ${runs} run(s) each; machine: ${cpus().length} × ${cpus()[0]?.model}`,
);
const clips = {
  'testsrc2 (hard case)': `testsrc2=s=1920x1080:r=30:d=${seconds}`,
  'slides (common case)': `testsrc=s=1920x1080:r=0.1:d=${seconds}`,
};
for (const [label, video] of Object.entries(clips)) {
  const source = await makeSource(label.split(' ')[0], video);
  const info = await describeSource(tools, source);
  if ('refused' in info) throw new Error(info.refused);
  const plan = planLadder(info);
  const ours: Measure[] = [];
  const separate: Measure[] = [];
  for (let run = 0; run < runs; run++) {
    const out = join(work, `out-${run}`);
    rmSync(out, { recursive: true, force: true });
    for (let i = 0; i < plan.rungs.length; i++) mkdirSync(join(out, 'ladder', String(i)), { recursive: true });
    ours.push(await timed(transcodeArgs(tools, plan, source, join(out, 'ladder'))));
    const total: Measure = { wall: 0, cpu: 0, peakMb: 0 };
    for (let rung = 0; rung < plan.rungs.length; rung++) {
      mkdirSync(join(out, `separate-${rung}`, '0'), { recursive: true });
      const m = await timed(separateRunArgs(source, out, plan, rung));
      total.wall += m.wall;
      total.cpu += m.cpu;
      total.peakMb = Math.max(total.peakMb, m.peakMb);
    }
    separate.push(total);
  }
  const wall = median(ours.map((m) => m.wall));
  const baseWall = median(separate.map((m) => m.wall));
  console.log(`\n${label}: ladder ${plan.rungs.map((r) => `${r.width}x${r.height}`).join(', ')}`);
  console.log(
    `  one process, split filter: ${wall.toFixed(1)} s wall, ${(seconds / wall).toFixed(2)}× realtime, ${median(ours.map((m) => m.cpu)).toFixed(1)} CPU s, peak ${median(ours.map((m) => m.peakMb)).toFixed(0)} MB`,
  );
  console.log(
    `  three separate runs:       ${baseWall.toFixed(1)} s wall, ${(seconds / baseWall).toFixed(2)}× realtime, ${median(separate.map((m) => m.cpu)).toFixed(1)} CPU s, peak ${median(separate.map((m) => m.peakMb)).toFixed(0)} MB`,
  );
  console.log(`  ratio (ours / separate):   ${(wall / baseWall).toFixed(2)}`);
}

// Upload complete → first playable segment, through the real server and worker.
const harness = await startHarness();
try {
  const teacher = await harness.signUp('teacher', 'Bench Teacher');
  const source = join(work, 'testsrc2.mp4');
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const uploaded = await harness.api('POST', '/api/upload', {
      as: teacher.token,
      body: uploadForm(readBytes(source), 'bench.mp4'),
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
      await Bun.sleep(50);
    }
    // Let it finish so runs do not overlap.
    while ((await video())?.status !== 'ready') await Bun.sleep(200);
  }
  console.log(
    `\nupload complete → first playable segment (testsrc2, all rungs): ${median(samples).toFixed(1)} s (target ≤ 10 s)`,
  );
} finally {
  await harness.close();
  rmSync(work, { recursive: true, force: true });
}
