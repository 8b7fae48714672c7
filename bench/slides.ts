/**
 * bench:slides — what a slides lecture costs to transcode and index, and how well the index finds slides. Makes a
 * 10-minute slides lecture with ffmpeg (720p, 30 fps: plain backgrounds changing at known times, known words in
 * DejaVu Sans, cross-fades and build-ups) and transcodes it with the real ladder (src/media/transcode.ts), the
 * pipeline of today (`lecture`: a still source at a constant 4 fps) and the one before it (`dropped`: repeated
 * frames dropped, a variable frame rate) interleaved run by run, printing each one's realtime factor and the
 * machine's load. Then runs the real detection (src/media/slides.ts) on the 240p rung the ladder made, as the job
 * does, and the real OCR (src/media/ocr.ts) on each found slide's frame at 720p. Prints CPU seconds of the
 * detection's ffmpeg per minute of lecture (target ≤ 2), seconds per slide for OCR (target ≤ 1), and precision /
 * recall against the known change times (±0.5 s; targets ≥ 95% found, ≤ 5% false).
 *
 *   bun run bench:slides [--minutes 10] [--runs 2] [--keep]
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runTool } from '../src/media/ffmpeg';
import { planLadder } from '../src/media/ladder';
import { readSlideText } from '../src/media/ocr';
import { describeSource } from '../src/media/probe';
import { detectSlides, type Mark } from '../src/media/slides';
import { type LadderOptions, looksStill, runTranscode } from '../src/media/transcode';
import { tools } from '../src/test/fixtures';
import { type ClipSlide, makeSlidesClip } from '../src/test/slides-clip';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    runs: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const runs = Number(values.runs);
const TOLERANCE = 0.5;

const WORDS = [
  'Photosynthesis',
  'Chlorophyll',
  'Mitochondria',
  'Respiration',
  'Glucose',
  'Enzymes',
  'Membrane',
  'Osmosis',
  'Diffusion',
  'Nucleus',
  'Ribosome',
  'Protein',
  'Genetics',
  'Mutation',
  'Evolution',
  'Ecosystem',
  'Habitat',
  'Population',
  'Predator',
  'Symbiosis',
  'Bacteria',
  'Virus',
  'Immunity',
  'Antibody',
  'Hormone',
  'Neuron',
  'Synapse',
  'Skeleton',
  'Muscle',
  'Digestion',
  'Kidney',
  'Circulation',
  'Oxygen',
  'Carbon',
  'Nitrogen',
  'Water',
  'Climate',
  'Fossil',
  'Species',
  'Classification',
  'Microscope',
  'Experiment',
  'Hypothesis',
  'Variable',
  'Summary',
  'Questions',
  'Revision',
  'Homework',
  'Chromosome',
  'Cytoplasm',
  'Organelle',
  'Vacuole',
];
const COLORS = ['white', 'lightyellow', 'lightblue', 'lightgreen', 'lightpink', 'lavender', 'wheat', 'honeydew'];

/** Slide lengths from 8 to 25 s (a fixed sequence, so every run makes the same lecture). */
function lecture(totalSeconds: number): ClipSlide[] {
  const slides: ClipSlide[] = [];
  let seed = 25;
  let length = 0;
  for (let i = 0; length < totalSeconds - 8; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const seconds = Math.min(8 + (seed % 18), totalSeconds - length);
    slides.push({
      seconds,
      color: COLORS[i % COLORS.length] as string,
      words: WORDS[i % WORDS.length] as string,
      ...(i % 5 === 2 ? { buildUp: ['first point', 'second point', 'third point'] } : {}),
      ...(i % 4 === 3 ? { fadeIn: true } : {}),
    });
    length += seconds - (i % 4 === 3 ? 1 : 0);
  }
  return slides;
}

/** Pairs each known change with the nearest unmatched mark within the tolerance. */
function score(changes: number[], marks: Mark[]) {
  const used = new Set<number>();
  let found = 0;
  for (const change of changes) {
    let best = -1;
    for (const [i, mark] of marks.entries()) {
      if (used.has(i) || Math.abs(mark.seconds - change) > TOLERANCE) continue;
      if (best < 0 || Math.abs(mark.seconds - change) < Math.abs((marks[best] as Mark).seconds - change)) best = i;
    }
    if (best >= 0) {
      used.add(best);
      found++;
    }
  }
  return { found, falseMarks: marks.length - used.size };
}

const dir = mkdtempSync(join(tmpdir(), 'classroom-bench-slides-'));
console.log(`bench:slides — a ${minutes}-minute slides lecture; machine: ${cpus().length} × ${cpus()[0]?.model}`);
try {
  let started = performance.now();
  const slides = lecture(minutes * 60);
  const clip = await makeSlidesClip(dir, slides, { width: 1280, height: 720, fps: 30, name: 'lecture-720p.mp4' });
  console.log(
    `lecture: ${clip.seconds.toFixed(0)} s, ${slides.length} slides (${slides.filter((s) => s.fadeIn).length} cross-fades, ${slides.filter((s) => s.buildUp).length} build-ups), made in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // The ladder, today's pipeline against the one before, interleaved (first one, then the other first) on a
  // machine that may be shared: the load average is printed with each run.
  const info = await describeSource(tools, clip.path);
  if ('refused' in info) throw new Error(info.refused);
  const plan = planLadder(info);
  const check = await looksStill(tools, plan, clip.path);
  console.log(
    `looksStill: ${check.still ? 'still' : 'NOT STILL'}, told by its ${check.by} (${check.cpuSeconds.toFixed(2)} CPU s); ladder ${plan.rungs.map((r) => r.name).join('/')}`,
  );
  const pipelines: LadderOptions['frames'][] = ['lecture', 'dropped'];
  const measured = new Map(pipelines.map((name) => [name, [] as { wall: number; cpu: number }[]]));
  for (let run = 0; run < runs; run++) {
    for (const frames of run % 2 ? [...pipelines].reverse() : pipelines) {
      const out = join(dir, frames);
      rmSync(out, { recursive: true, force: true });
      const load = loadavg()[0]?.toFixed(1);
      const t0 = performance.now();
      const result = await runTranscode(
        tools,
        plan,
        clip.path,
        out,
        () => {},
        new AbortController().signal,
        () => {},
        {
          frames,
        },
      );
      if (!result.ok) throw new Error(result.reason);
      const wall = (performance.now() - t0) / 1000;
      measured.get(frames)?.push({ wall, cpu: result.usage.cpuSeconds });
      console.log(
        `  run ${run + 1} ${frames.padEnd(7)} ${wall.toFixed(1)} s wall = ${(clip.seconds / wall).toFixed(2)}× realtime, ${result.usage.cpuSeconds.toFixed(1)} CPU s (load ${load} before)`,
      );
    }
  }
  const average = (list: number[]) => list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
  const wallOf = (frames: LadderOptions['frames']) => average((measured.get(frames) ?? []).map((m) => m.wall));
  const cpuOf = (frames: LadderOptions['frames']) => average((measured.get(frames) ?? []).map((m) => m.cpu));
  console.log(
    `transcode: lecture ${(clip.seconds / wallOf('lecture')).toFixed(2)}× realtime (${cpuOf('lecture').toFixed(1)} CPU s), before (dropped) ${(clip.seconds / wallOf('dropped')).toFixed(2)}× (${cpuOf('dropped').toFixed(1)} CPU s); wall lecture / before ${(wallOf('lecture') / wallOf('dropped')).toFixed(2)}, CPU ${(cpuOf('lecture') / cpuOf('dropped')).toFixed(2)} (means of ${runs} interleaved runs)`,
  );

  // The smallest rung as the slides job reads it: the init file, then every segment, as one fragmented MP4.
  const low = join(dir, 'rung-240p.mp4');
  const rung = join(dir, 'lecture', '0');
  const playlist = readFileSync(join(rung, 'index.m3u8'), 'utf8');
  writeFileSync(low, readFileSync(join(rung, /URI="([^"]+)"/.exec(playlist)?.[1] ?? 'init_0.mp4')));
  for (const name of playlist.split('\n').filter((line) => line.endsWith('.m4s'))) {
    appendFileSync(low, readFileSync(join(rung, name)));
  }

  started = performance.now();
  const detection = await detectSlides(tools, low);
  const detectWall = (performance.now() - started) / 1000;
  const lectureMinutes = clip.seconds / 60;
  const { found, falseMarks } = score(clip.changes, detection.marks);
  const recall = found / clip.changes.length;
  const falseShare = detection.marks.length ? falseMarks / detection.marks.length : 0;

  // OCR of each found slide at 720p, as the job does from the largest rung (one frame, one Tesseract run).
  const ocr = { tesseractPath: 'tesseract', ocrLanguages: 'eng' };
  const ocrSeconds: number[] = [];
  const ocrCpu: number[] = [];
  const grabCpu: number[] = [];
  let wordsRead = 0;
  for (const mark of detection.marks) {
    const picture = join(dir, 'slide.png');
    const grabbed = await runTool([
      tools.ffmpegPath,
      '-v',
      'error',
      '-y',
      '-ss',
      mark.frameSeconds.toFixed(3),
      '-i',
      clip.path,
      '-frames:v',
      '1',
      picture,
    ]);
    if (grabbed.exitCode !== 0) throw new Error(grabbed.stderr);
    grabCpu.push(grabbed.cpuSeconds);
    const t0 = performance.now();
    const { text, cpuSeconds } = await readSlideText(ocr, picture);
    ocrSeconds.push((performance.now() - t0) / 1000);
    ocrCpu.push(cpuSeconds);
    // The slide on screen at the mark's frame: the last change at or before it.
    const index = clip.changes.findLastIndex((change) => change <= mark.frameSeconds);
    if (text.toLowerCase().includes((slides[index]?.words ?? '').toLowerCase())) wordsRead++;
  }
  const mean = average(ocrSeconds);
  const meanCpu = average(ocrCpu);
  const worst = Math.max(0, ...ocrSeconds);

  const pass = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  console.log(
    `detection: ${detection.usage.cpuSeconds.toFixed(2)} CPU s for ${lectureMinutes.toFixed(1)} min = ${(detection.usage.cpuSeconds / lectureMinutes).toFixed(2)} CPU s per minute (target ≤ 2: ${pass(detection.usage.cpuSeconds / lectureMinutes <= 2)}); wall ${detectWall.toFixed(1)} s; still ${(detection.stillShare * 100).toFixed(0)}% of ${detection.samples} samples`,
  );
  console.log(
    `marks: ${detection.marks.length} for ${clip.changes.length} changes; found ${found} = ${(recall * 100).toFixed(1)}% (target ≥ 95%: ${pass(recall >= 0.95)}); false ${falseMarks} = ${(falseShare * 100).toFixed(1)}% (target ≤ 5%: ${pass(falseShare <= 0.05)}); within ±${TOLERANCE} s`,
  );
  console.log(
    `OCR: ${meanCpu.toFixed(2)} CPU s per slide (target ≤ 1: ${pass(meanCpu <= 1)}); wall ${mean.toFixed(2)} s on average, ${worst.toFixed(2)} s at worst; taking the 720p frame ${average(grabCpu).toFixed(2)} CPU s; the slide's word read on ${wordsRead} of ${detection.marks.length}`,
  );
  console.log(
    `(load average ${loadavg()[0]?.toFixed(1)} at the end: the machine may be shared; CPU seconds are the ffmpeg and Tesseract processes' own)`,
  );
} finally {
  if (values.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
