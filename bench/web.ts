/**
 * bench:web — what a first visit downloads, as Chromium reports it on the wire (compressed bodies plus headers,
 * cold cache): the login page, and a student's course page before Play (with the player's own chunk counted
 * apart), then what pressing Play adds. Checks the budgets of the "ship it" issue: login ≤ 100 KB, course page
 * before Play ≤ 200 KB plus the player's chunk. The baseline in the same run is the same pages fetched without
 * compression (`Accept-Encoding: identity`). Exits 1 when a budget is missed. Usage: bun run bench:web
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/browser';
import { createAccount, type RunningServer, signedInContext, startServer } from '../e2e/server';
import { makeClip } from '../src/test/fixtures';
import { startMailCapture } from '../src/test/mail-capture';

const LOGIN_BUDGET = 100 * 1024;
const COURSE_BUDGET = 200 * 1024;

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
          const body = await (await request.response())?.text();
          if (body?.includes('#EXT-X-')) kind = 'player';
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
  await browser.close();

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
} finally {
  await server?.stop();
  await mail.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
