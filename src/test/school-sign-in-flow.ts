import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer } from '../../e2e/server';
import { openTestDatabase, type TestDatabase } from './database';
import { freePort, type OidcProvider, startOidcProvider } from './oidc-provider';

/**
 * School sign-in played with fetch, for the server tests: the real server as a child process (trusting the
 * provider's CA through NODE_EXTRA_CA_CERTS), the real provider (./oidc-provider.ts), the test engine's database.
 * `schoolSignIn` follows the redirects by hand and fills the provider's login form.
 */

export type Flow = {
  status: number;
  location: string;
  token: string | undefined;
  callback?: string;
  /** Every cookie the answer set (the start's, when it did not go to the provider). */
  cookies: Record<string, string>;
  /** The provider's authorization URL the start sent the browser to. */
  authorizationUrl?: string;
};

/** The pairs a response set, as a cookie header would send them back. */
export function cookiesOf(response: Response) {
  const jar: Record<string, string> = {};
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    jar[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return jar;
}

export const cookieHeader = (jar: Record<string, string | undefined>) =>
  Object.entries(jar)
    .filter(([, value]) => value)
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

export type Setup = {
  server: RunningServer;
  provider: OidcProvider;
  database: TestDatabase;
  baseUrl: string;
  close(): Promise<void>;
};

export async function setUp(env: Record<string, string>, options: { providerDown?: boolean } = {}): Promise<Setup> {
  const dataDir = mkdtempSync(join(tmpdir(), 'classroom-oidc-test-'));
  const database = await openTestDatabase(dataDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    redirectUris: [`${baseUrl}/api/auth/oidc/callback`],
    postLogoutRedirectUris: [`${baseUrl}/`],
  });
  const providerEnv = provider.appEnv();
  if (options.providerDown) {
    // An issuer nobody answers at (a port free a moment ago), still trusted and https.
    providerEnv.OIDC_ISSUER = `https://127.0.0.1:${await freePort()}`;
  }
  const server = await startServer({
    dataDir,
    env: {
      PORT: String(port),
      PUBLIC_URL: baseUrl,
      TEACHER_SIGNUP: 'open',
      LOG_LEVEL: 'info',
      ...database.env,
      ...providerEnv,
      ...env,
    },
  });
  return {
    server,
    provider,
    database,
    baseUrl,
    async close() {
      await server.stop();
      await provider.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Plays one school sign-in in a fresh browser: the app's start, the provider's login form, the app's callback. */
export async function schoolSignIn(
  s: Setup,
  login: string,
  options: {
    query?: string;
    token?: string;
    tamper?: (callback: URL) => void | Promise<void>;
    cancel?: boolean;
  } = {},
): Promise<Flow> {
  const start = await fetch(`${s.baseUrl}/api/auth/oidc/start${options.query ?? ''}`, {
    redirect: 'manual',
    headers: { cookie: cookieHeader({ token: options.token }) },
  });
  const toProvider = start.headers.get('location') ?? '';
  if (start.status !== 302 || !toProvider.startsWith(s.provider.issuer)) {
    return { status: start.status, location: toProvider, token: undefined, cookies: cookiesOf(start) };
  }
  const attemptCookie = cookiesOf(start).oidc_attempt;
  const callback = new URL(await s.provider.loginThrough(toProvider, login, { cancel: options.cancel }));
  await options.tamper?.(callback);
  const back = await fetch(callback, {
    redirect: 'manual',
    headers: { cookie: cookieHeader({ oidc_attempt: attemptCookie, token: options.token }) },
  });
  return {
    status: back.status,
    location: back.headers.get('location') ?? '',
    token: cookiesOf(back).token || undefined,
    callback: callback.href,
    cookies: cookiesOf(back),
    authorizationUrl: toProvider,
  };
}
