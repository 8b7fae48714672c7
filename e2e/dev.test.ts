import { afterAll, beforeAll, expect, test } from 'bun:test';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { readStreamText } from '../src/lib/read-stream';
import { apiClient, signUpWith } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { waitUntil } from '../src/test/wait';
import { auditAccessibility, launchBrowser } from './browser';
import { root } from './server';

/**
 * `bun run dev` serves the web app with hot reload and passes /api to the API server it runs. The test runs a
 * temporary copy of web/ and src/ (the dev script's --root), so it may edit them without touching the checkout:
 * an edited component shows in the open page in place, with no reload, no build and no server restart; an
 * edited server file restarts the API server alone.
 */
const work = mkdtempSync(join(tmpdir(), 'classroom-e2e-dev-'));
const webCopy = join(work, 'web');
const srcCopy = join(work, 'src');
let dev: ReturnType<typeof Bun.spawn> | undefined;
let output = '';
let browser: Browser | undefined;
let baseUrl = '';
let apiPort = 0;
let mail: Awaited<ReturnType<typeof startMailCapture>> | undefined;

const freePort = () => {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port as number;
  probe.stop(true);
  return port;
};
const listening = async (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );

/** The copy's file (wherever the web app keeps it) that holds `text`. */
function fileWith(dir: string, text: string): string | undefined {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = fileWith(path, text);
      if (found) return found;
    } else if (entry.name.endsWith('.tsx') && readFileSync(path, 'utf8').includes(text)) return path;
  }
  return undefined;
}

beforeAll(async () => {
  // Copies of what the test edits; links to what it only reads.
  cpSync(join(root, 'web'), webCopy, { recursive: true });
  cpSync(join(root, 'src'), srcCopy, { recursive: true });
  // Copied, not linked: its path aliases (@ui/*, @contract/*, …) then name the copy's files, not the checkout's.
  cpSync(join(root, 'tsconfig.json'), join(work, 'tsconfig.json'));
  for (const name of ['node_modules', 'migrations', 'locales', 'package.json', 'bunfig.toml']) {
    if (existsSync(join(root, name))) symlinkSync(join(root, name), join(work, name));
  }
  mail = await startMailCapture();
  const port = freePort();
  apiPort = freePort();
  dev = Bun.spawn([process.execPath, 'run', 'dev', '--root', work], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      API_PORT: String(apiPort),
      DEV_HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      TEACHER_SIGNUP: 'open',
      SMTP_URL: mail.url,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  readStreamText(dev.stdout as ReadableStream<Uint8Array>, (text) => {
    output += text;
  });
  readStreamText(dev.stderr as ReadableStream<Uint8Array>, (text) => {
    output += text;
  });
  await waitUntil(
    'bun run dev to serve the web app and the API',
    () => {
      if (dev?.exitCode !== null) throw new Error(`bun run dev exited (${dev?.exitCode}):\n${output}`);
      return output.includes('[dev] web app with hot reload at') && output.includes('Classroom is listening');
    },
    { timeoutMs: 25_000, everyMs: 100, lastSeen: () => output.slice(-2000) },
  );
  baseUrl = `http://127.0.0.1:${port}`;
  browser = auditAccessibility(await launchBrowser());
}, 40_000);

afterAll(async () => {
  await browser?.close();
  // SIGTERM lets the loop stop what it started (the API server, Tailwind); SIGKILL only if it does not end.
  if (dev && dev.exitCode === null) {
    dev.kill('SIGTERM');
    await Promise.race([dev.exited, Bun.sleep(5000)]);
    if (dev.exitCode === null) dev.kill('SIGKILL');
    await dev.exited;
  }
  await mail?.close();
  rmSync(work, { recursive: true, force: true });
});

test('bun run dev serves the app, passes /api on, shows an edited component in the open page without a reload, restarts the API on a server change', async () => {
  expect(browser).toBeDefined();
  const page = await (browser as Browser).newPage({ viewport: { width: 1024, height: 768 } });
  await page.goto(`${baseUrl}/no-such-page`);
  const heading = page.getByRole('heading', { level: 1 });
  await heading.waitFor();
  const before = (await heading.textContent()) ?? '';
  expect(before).toContain('Not Found');
  // The page's own calls reach the API through the dev server, answered in our shape.
  const health = await page.evaluate(() => fetch('/api/health').then((answer) => answer.status));
  expect(health).toBe(200);
  const unknown = await page.evaluate(() => fetch('/api/no-such-route').then((answer) => answer.json()));
  expect(unknown).toMatchObject({ code: 'not_found' });
  // Signed in by the cookie alone, a write from the page passes the API's same-site check: the Host goes through.
  const teacher = await signUpWith(apiClient(baseUrl), mail as NonNullable<typeof mail>, 'teacher', 'Dev Teacher');
  await page.context().addCookies([{ name: 'token', value: teacher.token, url: baseUrl }]);
  const created = await page.evaluate(() =>
    fetch('/api/courses', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ courseName: 'Made in development' }),
    }).then(async (answer) => ({ status: answer.status, body: await answer.json() })),
  );
  expect(created).toMatchObject({ status: 201, body: { courseName: 'Made in development' } });

  // Edit the component in the copy: the open page changes in place (a value kept on window survives: no reload).
  await page.evaluate(() => {
    (window as unknown as { keptAcrossUpdate: number }).keptAcrossUpdate = 42;
  });
  // The heading's words are the catalogue's (docs/translating.md): the component gets words of its own after them.
  const file = fileWith(join(webCopy, 'src'), "{t('notFound.heading')}</h1>");
  expect(file).toBeString();
  const edited = `${before} (edited in development)`;
  const started = Date.now();
  writeFileSync(
    file as string,
    readFileSync(file as string, 'utf8').replace(
      "{t('notFound.heading')}</h1>",
      "{t('notFound.heading')} (edited in development)</h1>",
    ),
  );
  await page.getByRole('heading', { level: 1, name: edited }).waitFor({ timeout: 10_000 });
  const updateMs = Date.now() - started;
  expect(await page.evaluate(() => (window as unknown as { keptAcrossUpdate?: number }).keptAcrossUpdate)).toBe(42);
  console.log(`[dev loop] the edited component showed in the open page in ${updateMs} ms`);
  // Nothing was rebuilt or restarted: the API server started once.
  const starts = () => output.match(/Classroom is listening/g)?.length ?? 0;
  expect(starts()).toBe(1);

  // A changed server file restarts the API server (bun --watch); the page stays, and its calls work again.
  const serverFile = join(srcCopy, 'routes', 'health.ts');
  writeFileSync(serverFile, `${readFileSync(serverFile, 'utf8')}\n// edited in development\n`);
  await waitUntil('the API server to restart after a server file changed', () => starts() === 2, {
    timeoutMs: 20_000,
    everyMs: 100,
    lastSeen: () => output.slice(-1000),
  });
  const again = await waitUntil(
    'the API to answer through the dev server after its restart',
    () => page.evaluate(() => fetch('/api/health').then((answer) => answer.status === 200)),
    { timeoutMs: 10_000, everyMs: 100 },
  );
  expect(again).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { keptAcrossUpdate?: number }).keptAcrossUpdate)).toBe(42);
  await page.close();

  // Stopping the loop stops everything it started.
  dev?.kill('SIGTERM');
  await waitUntil('bun run dev to stop', () => dev?.exitCode !== null, { timeoutMs: 10_000, everyMs: 100 });
  await waitUntil('the API server to stop with the dev loop', async () => !(await listening(apiPort)), {
    timeoutMs: 10_000,
    everyMs: 100,
  });
}, 60_000);
