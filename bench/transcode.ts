/**
 * bench:transcode — the HLS ladder on generated 1080p30 clips: a camera (testsrc2 + sine: every frame moves) and
 * slides (a still picture that changes every 10 s, with sound). For each, in the same invocation and interleaved:
 * today's pipeline (`lecture`: a constant frame rate, 4 fps for a still source, audio encoded once in its own
 * process) against the one before it (`dropped`: repeated frames dropped, a variable frame rate), the one before that
 * (`every`: every frame encoded, audio encoded once per rung) and one ffmpeg per rung (as the original app and
 * PeerTube do). Prints realtime factor, wall and CPU seconds, bytes per rung (video + audio), and SSIM of each rung
 * against the source scaled to that rung; then the time from upload complete to first playable segment through the
 * real server, for both clips, on local disk and on S3 (s3rver).
 * Baseline: `--root <checkout>` (an untouched main) runs that checkout's `lecture` pipeline and its server instead of
 * the older pipelines, interleaved with this tree's, and prints the ratios (each server runs in its own process).
 * Usage: bun run bench:transcode [--seconds 60] [--runs 1] [--root /path/to/checkout] [--storage local,s3]
 *   [--only ladder|playable]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Plan } from '../src/media/ladder';
import type { LadderOptions, runTranscode } from '../src/media/transcode';
import { makeClip, tools } from '../src/test/fixtures';

const option = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const arg = (name: string, fallback: number) => Number(option(name) ?? fallback);
const seconds = arg('seconds', 60);
const runs = arg('runs', 1);
const here = resolve(import.meta.dir, '..');
const baseRoot = option('root') ? resolve(option('root') as string) : undefined;
const storages = (option('storage') ?? 'local,s3').split(',');
/** `ladder` or `playable`: only that half of the bench (each takes a while on a busy machine). */
const only = option('only');
const machine = () =>
  `machine: ${cpus().length} × ${cpus()[0]?.model}; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`;

/** A checkout's own modules (this tree's or the baseline's), so each side runs its own code. */
const modulesOf = async (root: string) => ({
  transcode: (await import(join(root, 'src/media/transcode.ts'))) as { runTranscode: typeof runTranscode },
  ladder: (await import(join(root, 'src/media/ladder.ts'))) as typeof import('../src/media/ladder'),
  probe: (await import(join(root, 'src/media/probe.ts'))) as typeof import('../src/media/probe'),
});

// A child run of this file: one upload through `root`'s real server and worker, printing its first playable time.
if (process.argv.includes('--first-playable')) {
  const root = option('root') as string;
  const { startHarness } = (await import(join(root, 'src/test/harness.ts'))) as typeof import('../src/test/harness');
  const { getVideo } = (await import(join(root, 'src/media/state.ts'))) as typeof import('../src/media/state');
  const fixtures = (await import(join(root, 'src/test/fixtures.ts'))) as typeof import('../src/test/fixtures');
  const harness = await startHarness({}, { storage: option('storage') as 'local' | 's3' });
  try {
    const teacher = await harness.signUp('teacher', 'Bench Teacher');
    const clip = option('clip') as string;
    const uploaded = await harness.api('POST', '/api/upload', {
      as: teacher.token,
      body: fixtures.uploadForm(fixtures.readBytes(clip), clip.split('/').at(-1) as string),
    });
    const answeredAt = Date.now();
    for (;;) {
      const row = await getVideo(harness.db, uploaded.json.videoId);
      if (row?.firstPlayableAt) {
        console.log(JSON.stringify({ seconds: (row.firstPlayableAt - answeredAt) / 1000 }));
        break;
      }
      if (row?.status === 'failed') throw new Error('transcode failed');
      await Bun.sleep(10);
    }
    // Closing stops the worker, which stops its ffmpeg: the next run does not share the machine with this one.
  } finally {
    await harness.close();
  }
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'classroom-bench-'));
const ours = await modulesOf(here);
const base = baseRoot ? await modulesOf(baseRoot) : undefined;

type Measure = { wall: number; cpu: number; peakMb: number };
type Run = typeof runTranscode;

async function transcode(run: Run, plan: Plan, source: string, out: string, options: LadderOptions): Promise<Measure> {
  rmSync(out, { recursive: true, force: true });
  const started = performance.now();
  const result = await run(
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
    const m = await transcode(ours.transcode.runTranscode, { ...plan, rungs: [rung] }, source, join(out, String(i)), {
      frames: 'every',
    });
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
/** SSIM in decibels, where a step reads the same at any quality. */
const decibels = (score: number) => -10 * Math.log10(1 - score);

console.log(`bench:transcode — ${seconds}s 1080p30 sources, ${runs} run(s) each; ${machine()}`);
if (baseRoot) console.log(`baseline: ${baseRoot} (its own lecture pipeline and server), ours: ${here}`);
const clips = {
  camera: `testsrc2=s=1920x1080:r=30:d=${seconds}`,
  slides: `testsrc=s=1920x1080:r=0.1:d=${seconds}`,
};
type Variant = { name: string; label: string; measure: (plan: Plan, source: string, out: string) => Promise<Measure> };
const variants: Variant[] = [
  {
    name: 'ours',
    label: 'lecture (ours, constant rate):',
    measure: (plan, source, out) => transcode(ours.transcode.runTranscode, plan, source, out, { frames: 'lecture' }),
  },
  ...(base
    ? [
        {
          name: 'baseline',
          label: 'lecture (baseline checkout):',
          measure: (plan: Plan, source: string, out: string) =>
            transcode(base.transcode.runTranscode, plan, source, out, { frames: 'lecture' }),
        },
      ]
    : [
        {
          name: 'dropped',
          label: 'dropped (variable rate):',
          measure: (plan: Plan, source: string, out: string) =>
            transcode(ours.transcode.runTranscode, plan, source, out, { frames: 'dropped' }),
        },
        {
          name: 'before',
          label: 'before (every frame, audio × rungs):',
          measure: (plan: Plan, source: string, out: string) =>
            transcode(ours.transcode.runTranscode, plan, source, out, { frames: 'every' }),
        },
        { name: 'separate', label: 'one ffmpeg per rung:', measure: separateRuns },
      ]),
];
for (const [label, video] of Object.entries(clips)) {
  const source = await makeClip(work, { width: 1920, height: 1080, seconds, video, crf: 18, name: `${label}.mp4` });
  if (only === 'playable') continue;
  const info = await ours.probe.describeSource(tools, source);
  if ('refused' in info) throw new Error(info.refused);
  const plan = ours.ladder.planLadder(info);
  const measures = new Map<string, Measure[]>(variants.map((v) => [v.name, []]));
  for (let run = 0; run < runs; run++) {
    // Alternate which goes first, so neither always meets the same moment of a busy machine.
    const order = run % 2 === 0 ? variants : variants.toReversed();
    for (const variant of order) {
      measures.get(variant.name)?.push(await variant.measure(plan, source, join(work, label, variant.name)));
    }
  }
  console.log(`\n${label}: ladder ${plan.rungs.map((r) => `${r.width}x${r.height}`).join(', ')}; ${machine()}`);
  const walls = new Map<string, number>();
  for (const variant of variants) {
    const list = measures.get(variant.name) ?? [];
    const wall = median(list.map((m) => m.wall));
    walls.set(variant.name, wall);
    console.log(
      `  ${variant.label.padEnd(34)} ${wall.toFixed(1).padStart(5)} s wall, ${(seconds / wall).toFixed(2).padStart(5)}× realtime, ${median(list.map((m) => m.cpu)).toFixed(1)} CPU s, peak ${median(list.map((m) => m.peakMb)).toFixed(0)} MB`,
    );
  }
  const oursWall = walls.get('ours') ?? 0;
  const ratios = variants
    .filter((v) => v.name !== 'ours')
    .map((v) => `ours / ${v.name} ${(oursWall / (walls.get(v.name) ?? 1)).toFixed(2)}`);
  console.log(`  ratio of wall time: ${ratios.join(', ')}`);
  const compared = variants.filter((v) => v.name !== 'separate').map((v) => v.name);
  for (const [i, rung] of plan.rungs.entries()) {
    const figures = [];
    for (const kind of compared) {
      const dir = join(work, label, kind, String(i));
      const bytes = rungBytes(dir);
      const score = await ssim(source, join(dir, 'index.m3u8'), rung.width, rung.height);
      figures.push(
        `${kind} ${(bytes / 1e6).toFixed(2)} MB (${kbps(bytes).toFixed(0)} kb/s), SSIM ${score.toFixed(4)} (${decibels(score).toFixed(2)} dB)`,
      );
    }
    console.log(`  ${rung.name.padEnd(5)} ${figures.join(' | ')}`);
  }
}

// Upload complete → first playable segment (every rung has one), through the real server and worker: each run in
// its own process, this tree's and the baseline's interleaved.
const firstPlayable = async (root: string, storage: string, clip: string) => {
  const child = Bun.spawn(
    ['bun', import.meta.path, '--first-playable', '--root', root, '--storage', storage, '--clip', clip],
    { cwd: root, stdout: 'pipe', stderr: 'inherit' },
  );
  const text = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`first playable run failed: ${text}`);
  const line = text
    .trim()
    .split('\n')
    .findLast((l) => l.startsWith('{"seconds"'));
  return (JSON.parse(line ?? '{}') as { seconds: number }).seconds;
};
try {
  const roots = [{ name: 'ours', root: here }, ...(baseRoot ? [{ name: 'baseline', root: baseRoot }] : [])];
  for (const storage of only === 'ladder' ? [] : storages) {
    for (const label of Object.keys(clips)) {
      const samples = new Map<string, number[]>(roots.map((r) => [r.name, []]));
      for (let run = 0; run < Math.max(3, runs); run++) {
        for (const { name, root } of run % 2 === 0 ? roots : roots.toReversed()) {
          samples.get(name)?.push(await firstPlayable(root, storage, join(work, `${label}.mp4`)));
        }
      }
      const figure = (name: string) => median(samples.get(name) ?? []);
      const goal = storage === 's3' ? 3 : 1.5;
      const shown = roots.map(
        ({ name }) =>
          `${name} ${figure(name).toFixed(2)} s [${(samples.get(name) ?? []).map((s) => s.toFixed(2)).join(', ')}]`,
      );
      const ratio = baseRoot ? `, ours / baseline ${(figure('ours') / figure('baseline')).toFixed(2)}` : '';
      console.log(
        `\nupload complete → first playable segment (${label}, ${storage}, every rung, median of ${samples.get('ours')?.length}): ${shown.join(' | ')}${ratio} (goal ≤ ${goal} s); ${machine()}`,
      );
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
