/**
 * A real server for component tests: `bun src/main.ts` on a fresh data folder (e2e/server.ts) with a real SMTP
 * capture, and happy-dom's page moved to its address so the app's `fetch('/api/…')` reaches it, same origin.
 */

import { beforeAll } from 'bun:test';
import { join } from 'node:path';
import { type RunningServer, root, startServer } from '../../e2e/server';
import { startMailCapture } from '../../src/test/mail-capture';
import { atEnd } from './at-end';
import { nativeFetch } from './native-fetch';

export const TEST_PASSWORD = 'correct horse battery';

type Mail = Awaited<ReturnType<typeof startMailCapture>>;
export type TestServer = {
  baseUrl: string;
  mail: Mail;
  /** Calls the API with Bun's fetch (set-up only: the component under test uses the page's fetch). */
  api: (method: string, path: string, body?: unknown, token?: string) => Promise<{ status: number; json: any }>;
  /** Signs a user up and verifies them by the mailed code, as the sign-up form does. */
  signUp: (role: 'teacher' | 'student', name: string) => Promise<{ token: string; email: string; user: any }>;
  /**
   * How many requests to this method and path (as sent, without the query) the server has answered so far, read
   * from its own request log: a form that sends nothing leaves the count as it was.
   */
  requests: (method: string, path: string) => Promise<number>;
};

let shared: Promise<{ server: RunningServer; mail: Mail }> | undefined;

/** One server for the whole run (each start costs seconds): started by the first file that asks, stopped at the end. */
function sharedServer() {
  shared ??= (async () => {
    const mail = await startMailCapture();
    const server = await startServer({
      // No worker: a component test never waits for a transcode, and ffmpeg would take the run's CPU.
      env: { SMTP_URL: mail.url, TEACHER_SIGNUP: 'open', JOBS_IN_PROCESS: 'false' },
      // A run that is killed, or ends before its afterAll, takes the server with it.
      command: ['bun', '--no-orphans', join(root, 'src', 'main.ts')],
    });
    atEnd(async () => {
      await server.stop();
      await mail.close();
    });
    return { server, mail };
  })();
  return shared;
}

/** The run's real server, ready before the file's tests, with happy-dom's page at its address. */
export function realServer(): TestServer {
  const state = {} as TestServer;
  beforeAll(async () => {
    const { server, mail } = await sharedServer();
    (window as unknown as { happyDOM: { setURL: (url: string) => void } }).happyDOM.setURL(`${server.baseUrl}/`);
    const call = async (method: string, path: string, body?: unknown, token?: string, cookie?: string) => {
      const headers: Record<string, string> = {};
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (token) headers.authorization = `Bearer ${token}`;
      if (cookie) headers.cookie = cookie;
      const response = await nativeFetch(`${server.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? JSON.parse(text) : undefined, headers: response.headers };
    };
    /** The request log's lines, once a marker request asked after everything before it shows in them. */
    const requestLines = async () => {
      const marker = `/api/test-marker-${crypto.randomUUID()}`;
      await call('GET', marker);
      const deadline = Date.now() + 5000;
      while (!server.logs().includes(marker)) {
        if (Date.now() > deadline) throw new Error('The request log never showed the marker request');
        await Bun.sleep(10);
      }
      return server
        .logs()
        .split('\n')
        .flatMap((line) => {
          try {
            const entry = JSON.parse(line);
            return entry.msg === 'request' ? [entry as { method: string; path: string }] : [];
          } catch {
            return [];
          }
        });
    };
    Object.assign(state, {
      baseUrl: server.baseUrl,
      async requests(method: string, path: string) {
        return (await requestLines()).filter((entry) => entry.method === method && entry.path === path).length;
      },
      mail,
      api: (method: string, path: string, body?: unknown, token?: string) => call(method, path, body, token),
      async signUp(role: 'teacher' | 'student', name: string) {
        const email = `${name.replace(/\W+/g, '.')}@example.test`.toLowerCase();
        const registered = await call('POST', '/api/users/register', {
          username: name,
          email,
          password: TEST_PASSWORD,
          role,
        });
        if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.json)}`);
        const cookie = registered.headers
          .getSetCookie()
          .map((line) => line.split(';')[0])
          .find((pair) => pair.startsWith('signup=') && pair.length > 'signup='.length);
        const otp = await mail.codeFor(email);
        const verified = await call('POST', '/api/users/verify-otp', { email, otp }, undefined, cookie);
        if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.json)}`);
        return { token: verified.json.token, email, user: verified.json.user };
      },
    });
  }, 30_000);
  return state;
}
