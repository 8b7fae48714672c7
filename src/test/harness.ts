import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, maxRequestBodySize } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { createSmtpMailer } from '../mail/mailer';
import { createMediaWorker } from '../media/queue';
import { startMailCapture } from './mail-capture';

export type Harness = Awaited<ReturnType<typeof startHarness>>;

/** A real server on a loopback port with a temp SQLite file and a real SMTP capture. */
export async function startHarness(
  env: Record<string, string> = {},
  options: { worker?: boolean; smtpUrl?: string } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-test-'));
  const mail = await startMailCapture();
  const config = loadConfig({ DATA_DIR: dataDir, SMTP_URL: mail.url, ...env });
  const { sqlite, db } = openDatabase(config.databaseFile);
  migrate(sqlite);
  const media = createMediaWorker({ config, db, log: () => {} });
  const app = createApp({
    config,
    db,
    sqlite,
    mailer: createSmtpMailer(options.smtpUrl ?? mail.url, config.mailFrom),
    media,
  });
  if (options.worker !== false) media.start();
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: app.fetch,
    maxRequestBodySize: maxRequestBodySize(config),
  });
  const baseUrl = `http://127.0.0.1:${server.port}`;

  /** Calls the API over real HTTP; `as` is a token; a plain object body is sent as JSON. */
  async function api(
    method: string,
    path: string,
    options: { as?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
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
  }

  /** Signs up, verifies by the mailed code, and returns the token and user. */
  async function signUp(
    role: 'teacher' | 'student' = 'student',
    name = `${role} ${Math.random().toString(36).slice(2, 7)}`,
  ) {
    const email = `${name.replace(/\W+/g, '.')}@example.test`.toLowerCase();
    const password = 'correct horse battery';
    const registered = await api('POST', '/api/users/register', { body: { username: name, email, password, role } });
    if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`);
    const otp = await mail.codeFor(email);
    const verified = await api('POST', '/api/users/verify-otp', { body: { email, otp } });
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.text}`);
    return { token: verified.json.token as string, user: verified.json.user, email, password };
  }

  async function close() {
    await server.stop(true);
    await media.stop();
    sqlite.close();
    await mail.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  return { baseUrl, api, signUp, mail, db, sqlite, config, dataDir, media, close };
}
