import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { readStreamText } from '../src/lib/read-stream';
import { apiClient, signUpWith } from '../src/test/harness';

export const root = join(import.meta.dir, '..');
export const screenshotDir = join(root, 'artifacts', 'screenshots');

export type RunningServer = {
  baseUrl: string;
  pid: number;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
  /** SIGKILL: no shutdown, as in a crash; the data folder stays. */
  kill: () => Promise<void>;
};

/** Starts the real server (`bun src/main.ts`, or a compiled binary) as a child process on a free port. */
export async function startServer(
  options: { env?: Record<string, string>; command?: string[]; cwd?: string; dataDir?: string } = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'classroom-e2e-'));
  const child = Bun.spawn(options.command ?? ['bun', join(root, 'src', 'main.ts')], {
    cwd: options.cwd ?? root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...options.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  readStreamText(child.stdout, (text) => {
    output += text;
  });
  readStreamText(child.stderr, (text) => {
    output += text;
  });
  const deadline = Date.now() + 20_000;
  let port: string | undefined;
  while (!port) {
    port = /listening on http:\/\/localhost:(\d+)/.exec(output)?.[1];
    if (port) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill();
      throw new Error(`Server did not start:\n${output}`);
    }
    await Bun.sleep(50);
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid,
    dataDir,
    logs: () => output,
    async kill() {
      child.kill('SIGKILL');
      await child.exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await child.exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Signs a user up over the API with the one test sign-up helper, plus an `api` bound to their token. */
export async function createAccount(
  server: RunningServer,
  mail: { codeFor: (to: string) => Promise<string> },
  username: string,
  role: 'teacher' | 'student',
) {
  const call = apiClient(server.baseUrl);
  const account = await signUpWith(call, mail, role, username);
  const api = async (method: string, path: string, body?: unknown) =>
    (await call(method, path, { as: account.token, body })).json;
  return { ...account, api };
}

/** A browser context signed in as the user, through the spec's `token` cookie. */
export async function signedInContext(
  browser: import('playwright-core').Browser,
  server: RunningServer,
  token: string,
  viewport = { width: 1280, height: 800 },
) {
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: 'token', value: token, url: server.baseUrl }]);
  return context;
}

/**
 * A test body that fails on its own deadline, `marginMs` before bun's timeout. When a test reaches bun's timeout,
 * bun kills every subprocess still running, the app's server and the browser among them, and every later test of
 * the file then fails with it. Calls of the body still under way end later, their failure already said here.
 */
export function withinDeadline(
  body: () => Promise<void>,
  timeoutMs: number,
  busyWith: () => string = () => '',
  marginMs = 3000,
): () => Promise<void> {
  return async () => {
    const running = body();
    running.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = timeoutMs - marginMs;
    try {
      await Promise.race([
        running,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`not done in ${limit / 1000} s, the test's own limit. ${busyWith()}`)),
            limit,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
}
