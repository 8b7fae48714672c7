/**
 * bench:iphone — the three paths the player takes on Apple's engine, measured in Debian's WebKitGTK (see
 * docs/iphone.md): hls.js over MediaSource (mode a: desktop Safari, iPad), hls.js over ManagedMediaSource (mode b:
 * iPhone, iOS 17.1+) and the engine's own HLS (mode c: older iPhones, GStreamer's HLS here).
 *
 * For each mode, IPHONE_RUNS times (3 by default), on a fresh browser (a cold cache) and a real lecture (a 720p
 * clip transcoded to its 240p, 360p and 720p rungs, with captions): time from Play to the first frame, time to the
 * top rung and the rung switches on the way, frames decoded and dropped, and the CPU the browser's processes spent
 * per second of playback (the nearest thing to battery that can be measured here). Then, once per mode, whether the
 * captions show in the video's own full screen and whether AirPlay would get a playlist it can play.
 * Every figure is also given as a ratio to mode (a) of the same run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, startServer } from '../e2e/server';
import { launchWebKit, openWithoutGesture, signInThroughForm, type WebKit, type WebKitMode } from '../e2e/webkit';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const RUNS = Number(process.env.IPHONE_RUNS ?? 3);
const PLAY_SECONDS = 12;
const MODES: { mode: WebKitMode; name: string }[] = [
  { mode: 'mse', name: '(a) hls.js over MediaSource' },
  { mode: 'mms', name: '(b) hls.js over ManagedMediaSource' },
  { mode: 'native', name: '(c) native HLS' },
];

const clips = mkdtempSync(join(tmpdir(), 'classroom-bench-iphone-'));
const mail = await startMailCapture();
const server = await startServer({ env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open' } });
try {
  const teacher = await createAccount(server, mail, 'Bench Teacher', 'teacher');
  const student = await createAccount(server, mail, 'Bench Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Bench 101' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(await makeClip(clips, { width: 1280, height: 720, seconds: 40 })));
  form.append('courseId', course._id);
  form.append('nameOfTopic', 'Bench lecture');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  const deadline = Date.now() + 300_000;
  while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') {
    if (Date.now() > deadline) throw new Error('the lecture was not ready in 5 minutes');
    await Bun.sleep(500);
  }
  const captions = new FormData();
  const cues = Array.from(
    { length: 20 },
    (_, i) =>
      `00:00:${String(i * 2).padStart(2, '0')}.000 --> 00:00:${String(i * 2 + 2).padStart(2, '0')}.000\nCue ${i + 1}`,
  );
  captions.append('file', new File([`WEBVTT\n\n${cues.join('\n\n')}\n`], 'bench.vtt', { type: 'text/vtt' }));
  captions.append('language', 'en');
  captions.append('label', 'English');
  await teacher.api('POST', `/api/lectures/${uploaded.lectureId}/captions`, captions);
  const href = `/classroom/${course._id}`;

  type Run = {
    startMs: number;
    topRungMs: number;
    switches: number;
    heights: number[];
    dropped: number;
    decoded: number;
    cpuPerSecond: number;
  };
  const results: Record<
    string,
    { runs: Run[]; failures: string[]; captionsInVideoFullscreen: boolean; airplay: string }
  > = {};

  for (const { mode, name } of MODES) {
    const runs: Run[] = [];
    const failures: string[] = [];
    let captionsInVideoFullscreen = false;
    let airplay = '';
    for (let run = 0; run < RUNS; run++) {
      // Each run from the start of the lecture (no resume point) on a cold browser.
      await student.api('PUT', `/api/lectures/${uploaded.lectureId}/progress`, { position: 0, duration: 40 });
      const browser = await launchWebKit(mode);
      try {
        await signInThroughForm(browser, server.baseUrl, student);
        await openWithoutGesture(browser, server.baseUrl, href);
        await browser.waitFor('the player', () => !!document.querySelector('[data-testid="video-player"] video'));
        await browser.run(installProbe);
        await browser.click(await browser.find('[data-testid="video-player"] button[aria-label="Play"]'));
        await browser.waitFor('the first frame', () => (window as unknown as Probe).probe.firstFrame > 0, [], 30_000);
        const cpuAtStart = browser.cpuSeconds();
        const playedFrom = await browser.run(() => (document.querySelector('video') as HTMLVideoElement).currentTime);
        await browser.waitFor(
          `${PLAY_SECONDS} s of playback`,
          (seconds: number) => (document.querySelector('video')?.currentTime ?? 0) > seconds,
          [playedFrom + PLAY_SECONDS],
          PLAY_SECONDS * 1000 + 30_000,
        );
        const cpu = browser.cpuSeconds() - cpuAtStart;
        const probe = await browser.run(() => {
          const p = (window as unknown as Probe).probe;
          const v = document.querySelector('video') as HTMLVideoElement;
          const quality = v.getVideoPlaybackQuality?.();
          return { ...p, dropped: quality?.droppedVideoFrames ?? 0, decoded: quality?.totalVideoFrames ?? 0 };
        });
        const top = Math.max(...probe.heights.map((h) => h.height));
        const heights = probe.heights.map((h) => h.height).filter((h, i, all) => h !== all[i - 1]);
        runs.push({
          startMs: Math.round(probe.firstFrame - probe.play),
          topRungMs: Math.round((probe.heights.find((h) => h.height === top)?.at ?? probe.play) - probe.play),
          switches: heights.length - 1,
          heights,
          dropped: probe.dropped,
          decoded: probe.decoded,
          cpuPerSecond: Math.round((cpu / PLAY_SECONDS) * 1000) / 1000,
        });
        if (!airplay) {
          airplay = await browser.run(airplayOffer);
          captionsInVideoFullscreen = await captionsInFullscreen(browser);
        }
      } catch (error) {
        const clock = await browser
          .run(() => document.querySelector('[data-testid="player-time"]')?.textContent ?? 'no clock')
          .catch(() => 'no page');
        await browser.screenshot(`bench-iphone-${mode}-failed`).catch(() => '');
        // A run that stalls is a finding, not the end of the bench: counted, shown, and the next run goes on.
        failures.push(`run ${run + 1}: ${(error as Error).message} (the player said ${clock})`);
      } finally {
        await browser.close();
      }
    }
    results[name] = { runs, failures, captionsInVideoFullscreen, airplay };
  }

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  const base = results[MODES[0]?.name ?? ''];
  const baseFigure = (pick: (run: Run) => number) => median(base?.runs.map(pick) ?? [1]) || 1;
  const ratio = (value: number, pick: (run: Run) => number) => `${(value / baseFigure(pick)).toFixed(2)}×`;
  console.log(`\nbench:iphone — WebKitGTK, ${RUNS} cold runs per mode, ${PLAY_SECONDS} s of playback each (medians)\n`);
  for (const [name, result] of Object.entries(results)) {
    const start = median(result.runs.map((r) => r.startMs));
    const topRung = median(result.runs.map((r) => r.topRungMs));
    const cpu = median(result.runs.map((r) => r.cpuPerSecond));
    const switches = median(result.runs.map((r) => r.switches));
    console.log(name);
    console.log(`  first frame after Play   ${start} ms (${ratio(start, (r) => r.startMs)} of a)`);
    console.log(
      `  top rung reached after   ${topRung} ms (${ratio(topRung, (r) => r.topRungMs)} of a); ${switches} switches`,
    );
    console.log(`  rungs seen, each run     ${result.runs.map((r) => r.heights.join('→')).join(' | ')}`);
    console.log(`  CPU per playback second  ${cpu} s (${ratio(cpu, (r) => r.cpuPerSecond)} of a)`);
    console.log(`  frames decoded / dropped ${result.runs.map((r) => `${r.decoded}/${r.dropped}`).join(', ')}`);
    console.log(
      `  captions in full screen (the player's on a, the video's own on b and c): ${result.captionsInVideoFullscreen ? 'shown' : 'NOT shown'}`,
    );
    console.log(`  AirPlay: ${result.airplay}`);
    console.log(
      `  runs that failed: ${result.failures.length} of ${RUNS}${result.failures.map((f) => `\n    ${f}`).join('')}`,
    );
  }
} finally {
  await server.stop();
  await mail.close();
  rmSync(clips, { recursive: true, force: true });
}

type Probe = { probe: { play: number; firstFrame: number; heights: { height: number; at: number }[] } };

/** In the page: when Play happened, when the first frame was shown, and each picture height with its time. */
function installProbe() {
  const v = document.querySelector('video') as HTMLVideoElement & {
    requestVideoFrameCallback?: (callback: () => void) => number;
  };
  const probe = { play: 0, firstFrame: 0, heights: [] as { height: number; at: number }[] };
  (window as unknown as Probe).probe = probe;
  v.addEventListener('play', () => {
    if (!probe.play) probe.play = performance.now();
  });
  const onFrame = () => {
    if (!probe.firstFrame && v.currentTime > 0) probe.firstFrame = performance.now();
  };
  if (v.requestVideoFrameCallback) {
    const each = () => {
      onFrame();
      v.requestVideoFrameCallback?.(each);
    };
    v.requestVideoFrameCallback(each);
  }
  v.addEventListener('timeupdate', onFrame);
  const note = () => {
    if (v.videoHeight && probe.heights.at(-1)?.height !== v.videoHeight) {
      probe.heights.push({ height: v.videoHeight, at: performance.now() });
    }
  };
  v.addEventListener('resize', note);
  v.addEventListener('loadedmetadata', note);
  setInterval(note, 100);
  return true;
}

/** What AirPlay would be handed on this path. */
function airplayOffer() {
  const v = document.querySelector('video') as HTMLVideoElement;
  const sources = Array.from(v.querySelectorAll('source'));
  if (v.getAttribute('src')?.startsWith('blob:')) return 'a MediaSource blob only (no playlist to hand over)';
  if (sources[0]?.src.startsWith('blob:')) {
    const alternative = sources.slice(1).some((source) => source.type === 'application/x-mpegURL');
    return alternative && !v.disableRemotePlayback
      ? 'the playlist, offered as an AirPlay source alternative beside the blob'
      : 'nothing: remote playback disabled';
  }
  return v.currentSrc.includes('.m3u8') ? 'the playlist itself (the element plays it)' : `unknown (${v.currentSrc})`;
}

/** Turns on CC, puts the player in full screen and answers whether the engine shows a cue. */
async function captionsInFullscreen(browser: WebKit): Promise<boolean> {
  await browser.run(() => (document.querySelector('video') as HTMLVideoElement).pause());
  await browser.click(await browser.find('[data-testid="video-player"] button[aria-label="Captions"]'));
  await browser.click(await browser.find('[data-testid="video-player"] button[aria-label="Fullscreen"]'));
  await browser.run(() => (document.querySelector('video') as HTMLVideoElement).play());
  return browser
    .waitFor(
      'captions in full screen',
      () => {
        const v = document.querySelector('video') as HTMLVideoElement;
        const overlay = document.fullscreenElement?.querySelector('[data-testid="captions"]')?.textContent;
        const track = Array.from(v.textTracks).find((t) => t.language === 'en');
        return !!overlay || (track?.mode === 'showing' && (track.activeCues?.length ?? 0) > 0);
      },
      [],
      10_000,
    )
    .then(
      () => true,
      () => false,
    );
}
