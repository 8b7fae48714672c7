import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, lte, notLike, or, sql } from 'drizzle-orm';
import { createApp, maxRequestBodySize } from '../app';
import { createAccountLimits } from '../auth/limits';
import { loadConfig } from '../config';
import { jobs as jobsTable } from '../db/schema';
import { createJobsClient } from '../jobs/client';
import { createLogger } from '../lib/log';
import { createSmtpMailer } from '../mail/mailer';
import { createStorage } from '../storage/create-storage';
import { startS3Server } from '../storage/test-s3-server';
import { createWorker } from '../worker-jobs';
import { openTestDatabase } from './database';
import { startMailCapture } from './mail-capture';

export type Harness = Awaited<ReturnType<typeof startHarness>>;
export type Api = (
  method: string,
  path: string,
  options?: { as?: string; body?: unknown; headers?: Record<string, string> },
) => Promise<{ status: number; json: any; text: string; headers: Headers }>;
export type Account = Awaited<ReturnType<typeof signUpWith>>;

export const TEST_PASSWORD = 'correct horse battery';

/** Calls a server over real HTTP; `as` is a token; a plain object body is sent as JSON. */
export function apiClient(baseUrl: string): Api {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.as) headers.authorization = `Bearer ${options.as}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || typeof options.body === 'string') body = options.body;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  };
}

/**
 * The `signup=…` pair a register answer set, to send back with the code as the registering browser does (a code
 * typed without it asks for a new password: docs/accounts.md, "sign-up takeover").
 */
export function signupCookie(headers: Headers): string | undefined {
  return headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .find((pair) => pair.startsWith('signup=') && pair.length > 'signup='.length);
}

/** The one way tests make an account: signs up, verifies by the mailed code, returns the token and user. */
export async function signUpWith(
  api: Api,
  mail: { codeFor: (to: string) => Promise<string> },
  role: 'teacher' | 'student' = 'student',
  name = `${role} ${Math.random().toString(36).slice(2, 7)}`,
) {
  const email = `${name.replace(/\W+/g, '.')}@example.test`.toLowerCase();
  const password = TEST_PASSWORD;
  const registered = await api('POST', '/api/users/register', { body: { username: name, email, password, role } });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`);
  const otp = await mail.codeFor(email);
  const cookie = signupCookie(registered.headers) ?? '';
  const verified = await api('POST', '/api/users/verify-otp', { body: { email, otp }, headers: { cookie } });
  if (verified.status !== 200) throw new Error(`verify failed: ${verified.text}`);
  return { token: verified.json.token as string, user: verified.json.user, email, password };
}

/**
 * A real server on a loopback port with a fresh database on the test engine (a temp SQLite file, or a new
 * PostgreSQL database with TEST_DATABASE_URL: src/test/database.ts), a real SMTP capture and (unless told not to) a worker. */
export async function startHarness(
  env: Record<string, string> = {},
  options: { worker?: boolean; smtpUrl?: string; storage?: 'local' | 's3' } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-test-'));
  const mail = await startMailCapture();
  // Media on the local disk, or (TEST_STORAGE=s3, as test-all's S3 run sets) in a real S3-compatible server.
  const driver = options.storage ?? (process.env.TEST_STORAGE === 's3' ? 's3' : 'local');
  const s3 = driver === 's3' ? await startS3Server() : undefined;
  // Teachers teach at once here; the approval tests ask for TEACHER_SIGNUP=approval themselves.
  const database = await openTestDatabase(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    SMTP_URL: mail.url,
    TEACHER_SIGNUP: 'open',
    ...database.env,
    ...s3?.env(),
    ...env,
  });
  const { db } = database.handle;
  const storage = createStorage(config);
  // Every log line the server writes, parsed, for tests that read the log.
  const logLines: Record<string, unknown>[] = [];
  const log = createLogger(
    { level: 'info', format: 'json' },
    { write: (line: string) => void logLines.push(JSON.parse(line)) },
  );
  const worker = createWorker({ config, db, storage, log });
  const jobs = createJobsClient(db, worker);
  const limits = createAccountLimits(db);
  const deps = {
    config,
    db,
    mailer: createSmtpMailer(options.smtpUrl ?? mail.url, config.mailFrom),
    storage,
    jobs,
    log,
  };
  const app = createApp(deps, limits);
  if (options.worker !== false) worker.start();
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: app.fetch,
    maxRequestBodySize: maxRequestBodySize(config),
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const api = apiClient(baseUrl);

  async function close() {
    await server.stop(true);
    await worker.stop();
    await database.close();
    await mail.close();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    baseUrl,
    api,
    /** The Hono app itself, for tests that read its routes. */
    app,
    /** What the app was made from, for tests that build one of its routers on its own. */
    deps,
    signUp: (role?: 'teacher' | 'student', name?: string) => signUpWith(api, mail, role, name),
    /** Every row of every table, read from outside the server (src/test/database.ts). */
    snapshot: () => database.snapshot(),
    /**
     * Waits until the worker has nothing due or running (periodic jobs aside): what an earlier, allowed request
     * set going (a notification mail) must not move rows between a refusal check's two snapshots.
     */
    async jobsSettled(deadlineMs = 30_000) {
      const until = Date.now() + deadlineMs;
      for (;;) {
        const [{ busy }] = await db
          .select({ busy: sql<number>`count(*)` })
          .from(jobsTable)
          .where(
            and(
              notLike(jobsTable.id, 'periodic-%'),
              or(
                eq(jobsTable.state, 'running'),
                and(eq(jobsTable.state, 'queued'), lte(jobsTable.runAfter, Date.now())),
              ),
            ),
          );
        if (Number(busy) === 0 || options.worker === false) return;
        if (Date.now() > until) throw new Error(`jobs still busy after ${deadlineMs} ms (${busy} due or running)`);
        await Bun.sleep(50);
      }
    },
    mail,
    db,
    config,
    dataDir,
    storage,
    /** The S3-compatible server the media are in (undefined on the local disk). */
    s3,
    worker,
    logLines,
    /** The app's rate limits, so a test can let a minute pass for one of them. */
    limits,
    close,
  };
}
