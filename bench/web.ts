/**
 * bench:web — what a first visit downloads, as Chromium reports it on the wire (compressed bodies plus headers,
 * cold cache): the login page, and a student's course page before Play (with the player's own chunk counted
 * apart), then what pressing Play adds. Checks the budgets of the "ship it" issue: login ≤ 100 KB, course page
 * before Play ≤ 200 KB plus the player's chunk. The baseline in the same run is the same pages fetched without
 * compression (`Accept-Encoding: identity`). Exits 1 when a budget is missed.
 *
 * Then the first frame, under the network profiles of the "fast where it matters" issue (Chromium's own
 * throttling through CDP): from navigation to the first video frame presented after pressing Play at once, and
 * the bytes downloaded before it, median of 3 cold runs. The baseline in the same run is the same page with the
 * player told to start at the top rung (a device that remembered 720p).
 *
 * Then Lighthouse (mobile preset: simulated slow 4G and a 4× slower CPU) on the login page and a student's course
 * page with a lecture, median score of 3 runs each. Lighthouse is not a dependency of the app or its tests (176 MB):
 * the first run installs the pinned version into `node_modules/.cache/bench-lighthouse` from the npm registry, and
 * runs it with Node against Debian's Chromium. `--no-lighthouse` skips it. Usage: bun run bench:web
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { createAccount, type RunningServer, signedInContext, startServer } from '../e2e/server';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';
import { benchTool } from './bench-tools';

const LOGIN_BUDGET = 100 * 1024;
/** The issue's profiles: down/up in bits per second, round trip in ms. */
const PROFILES = [
  { name: '3G', down: 1.6e6, up: 750e3, rtt: 150, frameBudgetMs: 4000, bytesBudget: 600 * 1024 },
  { name: 'school Wi-Fi', down: 20e6, up: 10e6, rtt: 20, frameBudgetMs: 1000 },
  // No goal in the issue: between the two, as a phone on a good mobile network.
  { name: '4G', down: 9e6, up: 3e6, rtt: 60 },
] as const;
const RUNS = 3;
const COURSE_BUDGET = 200 * 1024;
const LIGHTHOUSE_VERSION = '13.5.0';
const LIGHTHOUSE_GOAL = 90;

/**
 * A headless Chromium with its own empty profile and a DevTools port, holding the student's token cookie in its
 * jar. Lighthouse's `--extra-headers` only adds a request header, which `document.cookie` never shows, so the
 * app would (rightly) take the visitor for signed out; a fresh profile per run keeps the cache cold.
 */
async function chromeWithCookie(url: string, token: string) {
  const profile = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const chrome = Bun.spawn(
    [
      '/usr/bin/chromium',
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  );
  const stop = () => {
    chrome.kill();
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/json/version`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error('Chromium did not open its DevTools port in 15 s');
      await Bun.sleep(100);
    }
    const { chromium } = await import('playwright-core');
    const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    // For the whole site, as the app stores it (Path=/): a cookie for the page's URL alone stays off /media/, and the
    // course page's poster and playlist would answer 401.
    await cdp.contexts()[0].addCookies([{ name: 'token', value: token, url: new URL('/', url).href }]);
    await cdp.close(); // disconnects only: the browser and its cookie jar stay for Lighthouse
    return { port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Lighthouse's performance score (0–100) and its main figures for one page, run with Node. */
async function lighthouse(url: string, token?: string) {
  const cli = join(
    benchTool('lighthouse', [`lighthouse@${LIGHTHOUSE_VERSION}`], 'lighthouse/cli/index.js'),
    'lighthouse',
    'cli',
    'index.js',
  );
  const chrome = token ? await chromeWithCookie(url, token) : undefined;
  const run = Bun.spawn(
    [
      'node',
      cli,
      url,
      '--quiet',
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance',
      ...(chrome
        ? // Storage reset would clear the cookie too; the profile is new, so the cache is cold anyway.
          [`--port=${chrome.port}`, '--disable-storage-reset']
        : [
            '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync',
          ]),
    ],
    { env: { ...process.env, CHROME_PATH: '/usr/bin/chromium' }, stdout: 'pipe', stderr: 'pipe' },
  );
  const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text()]);
  const exitCode = await run.exited;
  chrome?.stop();
  if (exitCode !== 0) throw new Error(`lighthouse failed: ${err.slice(-500)}`);
  const report = JSON.parse(out) as {
    finalDisplayedUrl: string;
    categories: { performance: { score: number } };
    audits: Record<string, { numericValue?: number }>;
  };
  // A course page that sent Lighthouse to the sign-in page would score the wrong page.
  if (new URL(report.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`lighthouse ended on ${report.finalDisplayedUrl}, not ${url}`);
  }
  const ms = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round(report.categories.performance.score * 100),
    fcp: ms('first-contentful-paint'),
    lcp: ms('largest-contentful-paint'),
    tbt: ms('total-blocking-time'),
    cls: report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  };
}

type Transfer = { url: string; bytes: number; kind: 'player' | 'media' | 'other' };

/** Records every finished response of the page with its size on the wire, and which part of the app it is. */
function recordTransfers(page: Page) {
  const transfers: Transfer[] = [];
  const pending: Promise<void>[] = [];
  const onFinished = (request: import('playwright-core').Request) => {
    pending.push(
      (async () => {
        const sizes = await request.sizes();
        const url = new URL(request.url()).pathname;
        let kind: Transfer['kind'] = 'other';
        if (url.startsWith('/media/')) kind = 'media';
        else if (url.endsWith('.js')) {
          // hls.js's own event names: other chunks (the player's hooks, offline saving) read playlists too.
          const body = await (await request.response())?.text();
          if (body?.includes('hlsManifestParsed')) kind = 'player';
        }
        transfers.push({ url, bytes: sizes.responseBodySize + sizes.responseHeadersSize, kind });
      })(),
    );
  };
  page.on('requestfinished', onFinished);
  return async () => {
    page.off('requestfinished', onFinished);
    await Promise.all(pending);
    return [...transfers];
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sum = (list: Transfer[], kind?: Transfer['kind']) =>
  list.filter((t) => !kind || t.kind === kind).reduce((total, t) => total + t.bytes, 0);

async function visit(context: BrowserContext, url: string, then?: (page: Page) => Promise<void>) {
  const page = await context.newPage();
  const done = recordTransfers(page);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1000);
  const before = await done();
  let after: Transfer[] = [];
  if (then) {
    const more = recordTransfers(page);
    await then(page);
    after = await more();
  }
  await page.close();
  return { before, after };
}

console.log(`bench:web — machine: ${cpus().length} × ${cpus()[0]?.model}, Chromium, cold cache per page`);
const work = mkdtempSync(join(tmpdir(), 'classroom-bench-web-'));
const mail = await startMailCapture();
let server: RunningServer | undefined;
let failed = false;
try {
  server = await startServer({ env: { SMTP_URL: mail.url } });
  const teacher = await createAccount(server, mail, 'Bench Teacher', 'teacher');
  const student = await createAccount(server, mail, 'Bench Student', 'student');
  const course = await teacher.api('POST', '/api/courses', { courseName: 'Weight 101' });
  await student.api('POST', '/api/enrollments/join', { inviteCode: course.inviteCode });
  const clip = await makeClip(work, { width: 1280, height: 720, seconds: 20 });
  const form = new FormData();
  form.append('uploadedFile', Bun.file(clip), 'clip.mp4');
  const uploaded = await teacher.api('POST', '/api/upload', form);
  while ((await teacher.api('GET', `/api/videos/${uploaded.videoId}`)).status !== 'ready') await Bun.sleep(200);
  for (let i = 0; i < 5; i++) {
    await teacher.api('POST', '/api/lectures', {
      courseId: course._id,
      nameOfTopic: `Lecture ${i + 1}`,
      videoLink: uploaded.masterPlaylist,
    });
  }

  const browser = await launchBrowser();
  const rows: { label: string; compressed: number; identity: number; budget?: number }[] = [];
  for (const encoding of ['compressed', 'identity'] as const) {
    const headers = encoding === 'identity' ? { 'Accept-Encoding': 'identity' } : undefined;
    const anonymous = await browser.newContext({ extraHTTPHeaders: headers });
    const login = await visit(anonymous, `${server.baseUrl}/login`);
    if (process.argv.includes('--verbose')) {
      for (const t of login.before) console.log(`    ${encoding} login: ${t.url} ${t.bytes} B`);
    }
    await anonymous.close();
    // The same page in each other language: its own messages only (docs/translating.md), within the same budget.
    const inLanguages: [string, number, number][] = [];
    for (const locale of ['es', 'fr', 'pt-BR', 'hi', 'ar']) {
      const visitor = await browser.newContext({ extraHTTPHeaders: headers, locale });
      inLanguages.push([
        `login page in ${locale}`,
        sum((await visit(visitor, `${server.baseUrl}/login`)).before),
        LOGIN_BUDGET,
      ]);
      await visitor.close();
    }
    const signedIn = await signedInContext(browser, server, student.token);
    if (headers) await signedIn.setExtraHTTPHeaders(headers);
    const coursePage = await visit(signedIn, `${server.baseUrl}/classroom/${course._id}`, async (page) => {
      await page.getByRole('button', { name: 'Play', exact: true }).first().click();
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, {
        timeout: 30_000,
      });
    });
    await signedIn.close();
    const figures: [string, number, number?][] = [
      ['login page', sum(login.before), LOGIN_BUDGET],
      ...inLanguages,
      [
        'course page before Play, without the player chunk',
        sum(coursePage.before) - sum(coursePage.before, 'player'),
        COURSE_BUDGET,
      ],
      ['  of which video (playlists, segments)', sum(coursePage.before, 'media')],
      ['the player chunk (hls.js)', sum(coursePage.before, 'player') + sum(coursePage.after, 'player')],
      ['pressing Play adds (until 0.5 s played)', sum(coursePage.after)],
    ];
    for (const [label, bytes, budget] of figures) {
      const row = rows.find((r) => r.label === label) ?? { label, compressed: 0, identity: 0, budget };
      row[encoding] = bytes;
      if (!rows.includes(row)) rows.push(row);
    }
  }

  // First frame under throttled networks.
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const firstFrame = async (profile: (typeof PROFILES)[number], quality: 'auto' | 'top') => {
    const context = await signedInContext(browser, server!, student.token, { width: 375, height: 812 });
    if (quality === 'top') {
      await context.addInitScript(() => localStorage.setItem('classroom.player.quality', '2'));
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.rtt,
      downloadThroughput: profile.down / 8,
      uploadThroughput: profile.up / 8,
    });
    let bytes = 0;
    let counting = true;
    cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
      if (counting) bytes += event.encodedDataLength;
    });
    // Play is pressed from inside the page the moment it shows (a MutationObserver), not by Playwright's polling,
    // which waits up to 500 ms between looks; the first frame is read on the page's clock (0 = navigation start).
    await page.addInitScript(() => {
      const timing = window as unknown as { shown?: number; firstFrame?: Promise<number> };
      const look = () => {
        const play = document.querySelector<HTMLButtonElement>(
          '[data-testid="video-player"] button[aria-label="Play"]',
        );
        const video = document.querySelector('video');
        if (!play || !video || timing.firstFrame) return;
        timing.shown = performance.now();
        timing.firstFrame = new Promise((resolve) => video.requestVideoFrameCallback((now) => resolve(now)));
        // After the frame that shows it, as a hand would: React has finished wiring the button by then.
        requestAnimationFrame(() => setTimeout(() => play.click()));
      };
      new MutationObserver(look).observe(document, { childList: true, subtree: true, attributes: true });
    });
    await page.goto(`${server!.baseUrl}/classroom/${course._id}`, { waitUntil: 'commit' });
    await page.waitForFunction(() => !!(window as unknown as { firstFrame?: unknown }).firstFrame, undefined, {
      timeout: 60_000,
    });
    const at = await page.evaluate(() => (window as unknown as { firstFrame: Promise<number> }).firstFrame);
    counting = false;
    await context.close();
    return { ms: at, bytes };
  };
  const frameRows: string[] = [];
  for (const profile of PROFILES) {
    const results: Record<'auto' | 'top', { ms: number; bytes: number }[]> = { auto: [], top: [] };
    for (let run = 0; run < RUNS; run++) {
      // Interleaved, so a busy moment of the machine falls on both.
      for (const quality of ['auto', 'top'] as const) results[quality].push(await firstFrame(profile, quality));
    }
    const ms = median(results.auto.map((r) => r.ms));
    const bytes = median(results.auto.map((r) => r.bytes));
    const topMs = median(results.top.map((r) => r.ms));
    const topBytes = median(results.top.map((r) => r.bytes));
    const budget = 'frameBudgetMs' in profile ? profile.frameBudgetMs : undefined;
    const timeOk = budget === undefined || ms <= budget;
    const bytesOk = !('bytesBudget' in profile) || bytes <= profile.bytesBudget;
    if (!timeOk || !bytesOk) failed = true;
    frameRows.push(
      `  ${profile.name} (${profile.down / 1e6} Mbit/s, ${profile.rtt} ms): first frame ${(ms / 1000).toFixed(2)} s` +
        `${budget === undefined ? '' : ` ${timeOk ? '✓' : '✗'} ≤ ${budget / 1000} s`}, ${kb(bytes)} before it` +
        `${'bytesBudget' in profile ? ` ${bytesOk ? '✓' : '✗'} ≤ ${kb(profile.bytesBudget)}` : ''}; ` +
        `starting at 720p: ${(topMs / 1000).toFixed(2)} s, ${kb(topBytes)} (ratio ${(ms / topMs).toFixed(2)} time, ` +
        `${(bytes / topBytes).toFixed(2)} bytes)`,
    );
  }
  await browser.close();

  const lighthouseRows: string[] = [];
  if (!process.argv.includes('--no-lighthouse')) {
    const pages = [
      { name: 'login page', url: `${server.baseUrl}/login` },
      { name: 'course page', url: `${server.baseUrl}/classroom/${course._id}`, token: student.token },
    ];
    for (const page of pages) {
      const runs = [];
      for (let run = 0; run < RUNS; run++) runs.push(await lighthouse(page.url, page.token));
      const middle = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
      const ok = middle.score >= LIGHTHOUSE_GOAL;
      if (!ok) failed = true;
      lighthouseRows.push(
        `  ${page.name}: ${middle.score} ${ok ? '✓' : '✗'} ≥ ${LIGHTHOUSE_GOAL} (runs ${runs.map((r) => r.score).join(', ')}); ` +
          `FCP ${(middle.fcp / 1000).toFixed(1)} s, LCP ${(middle.lcp / 1000).toFixed(1)} s, TBT ${middle.tbt.toFixed(0)} ms, CLS ${middle.cls.toFixed(3)}`,
      );
    }
  }

  for (const row of rows) {
    const verdict =
      row.budget === undefined
        ? ''
        : row.compressed <= row.budget
          ? ` ✓ ≤ ${kb(row.budget)}`
          : ` ✗ over ${kb(row.budget)}`;
    if (row.budget !== undefined && row.compressed > row.budget) failed = true;
    const ratio =
      row.identity > 0 ? ` (${(row.compressed / row.identity).toFixed(2)} of uncompressed ${kb(row.identity)})` : '';
    console.log(`  ${row.label}: ${kb(row.compressed)}${ratio}${verdict}`);
  }
  console.log(`first frame at 375×812, median of ${RUNS} cold runs, Play pressed (in the page) as soon as it shows:`);
  for (const row of frameRows) console.log(row);
  if (lighthouseRows.length > 0) {
    console.log(`Lighthouse ${LIGHTHOUSE_VERSION} performance, mobile preset, median of ${RUNS}:`);
    for (const row of lighthouseRows) console.log(row);
  }
} finally {
  await server?.stop();
  await mail.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
