import { afterAll, beforeAll } from 'bun:test';
import type { Browser } from 'playwright-core';
import { startMailCapture } from '../src/test/mail-capture';
import { auditAccessibility, launchBrowser, serviceWorkersByDefault } from './browser';
import { type RunningServer, startServer } from './server';

export type E2eEnvironment = {
  server: RunningServer;
  mail: Awaited<ReturnType<typeof startMailCapture>>;
  browser: Browser;
};

/**
 * Per test file: a real SMTP capture, the real server as a child process on a fresh DATA_DIR, and Chromium whose
 * every page is checked by axe (see auditAccessibility). Service workers are blocked unless the file allows them
 * (see serviceWorkersByDefault): only the offline tests are about the app's worker.
 */
export function e2eEnvironment(
  serverEnv: Record<string, string> = { TEACHER_SIGNUP: 'open' },
  {
    serviceWorkers = 'block',
    browserArgs = [],
  }: {
    serviceWorkers?: 'allow' | 'block' /** Chromium flags a file needs (fake camera, auto-picked screen). */;
    browserArgs?: string[];
  } = {},
): E2eEnvironment {
  const env = {} as E2eEnvironment;
  beforeAll(async () => {
    env.mail = await startMailCapture();
    env.server = await startServer({ env: { SMTP_URL: env.mail.url, ...serverEnv } });
    env.browser = auditAccessibility(serviceWorkersByDefault(await launchBrowser(browserArgs), serviceWorkers));
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.server?.stop();
    await env.mail?.close();
  });
  return env;
}
