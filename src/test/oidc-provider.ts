/**
 * A real OpenID Connect provider for the tests (`oidc-provider` from npm, a certified implementation), over HTTPS
 * on 127.0.0.1 with a certificate made by `openssl` into a temp folder at start (never committed).
 *
 * ```ts
 * const port = await freePort();                        // the app's port, chosen first: the redirect URI names it
 * const publicUrl = `http://127.0.0.1:${port}`;
 * const provider = await startOidcProvider({ redirectUris: [`${publicUrl}/api/auth/oidc/callback`] });
 * provider.setAccount('pupil1', { email: 'pupil1@school.test', email_verified: true, name: 'Pupil One' });
 * const server = await startServer({ env: { PORT: String(port), PUBLIC_URL: publicUrl, ...provider.appEnv() } });
 * ```
 *
 * - **Trust.** The app trusts the provider through `NODE_EXTRA_CA_CERTS=<caCertPath>`, which Bun reads only when a
 *   process starts: so the app under test runs as a child process (e2e/server.ts `startServer`, whose `env` option
 *   takes `appEnv()`). TLS verification is never turned off. A test process that calls the provider itself (to post
 *   the login form with `fetch`) passes `tls: { ca }` per request: `provider.fetch(url, init)` does that.
 * - **Login page.** The provider's development interactions: `GET /auth…` shows a form (`input[name=login]`,
 *   `input[name=password]`, button "Sign-in"); any login name with any password signs in as that account id. There is
 *   no consent screen (the app's client is first-party). The page's "[ Cancel ]" link returns `error=access_denied`.
 *   The provider remembers a browser that signed in (its own session cookie, 1 hour): a second sign-in in the same
 *   browser context goes straight back to the app without the form; a new context shows it again.
 * - **Accounts.** `setAccount(id, claims)` chooses the claims of the account signed in with login `id`; an id never
 *   set gets `{ email: '<id>@school.test', email_verified: true, name: '<id>' }`. The claims (`email`,
 *   `email_verified`, `name`, `picture`, `hd`, `groups`, `roles`) all go into the ID token, as Google, Entra ID and
 *   Keycloak put them there.
 * - **Keys.** One RS256 key, made at start; `signJwt(payload)` signs with it (for ID tokens with a wrong `aud` or
 *   `nonce`, checked against the provider's real JWKS).
 * - **Clients.** One client: `clientId`/`clientSecret`, the given redirect URIs, `client_secret_basic`, PKCE
 *   required. `postLogoutRedirectUris` for the end-session tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations (a dev dependency used only here).
import Provider from 'oidc-provider';

export type OidcClaims = {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  hd?: string;
  groups?: string[];
  roles?: string[];
  [claim: string]: unknown;
};

export type OidcProvider = {
  /** https://127.0.0.1:<port> (no trailing slash): the app's OIDC_ISSUER. */
  issuer: string;
  /** The CA certificate the app trusts: its NODE_EXTRA_CA_CERTS. */
  caCertPath: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and NODE_EXTRA_CA_CERTS for the app's child process. */
  appEnv(): Record<string, string>;
  /** The claims of the account that signs in with login `id` (replaces any earlier choice). */
  setAccount(id: string, claims: OidcClaims): void;
  /** Signs a JWT with the provider's own key (its `kid`, RS256), as an ID token from it would be. */
  signJwt(payload: JWTPayload): Promise<string>;
  /** `fetch` that trusts the provider's certificate (for a test process started without NODE_EXTRA_CA_CERTS). */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  /**
   * Plays a browser at the provider without one: from the app's redirect to the provider (`authorizationUrl`),
   * follows the provider's redirects with its own cookies, fills the login form as `login` (or follows "Cancel"
   * with `cancel: true`) and returns the first URL that leaves the provider: the app's callback with `code` and
   * `state` (or `error`).
   */
  loginThrough(authorizationUrl: string, login: string, options?: { cancel?: boolean }): Promise<string>;
  /** Requests the provider received, by path (for "was the provider called" assertions). */
  requests: string[];
  stop(): Promise<void>;
};

/** A TCP port free right now on 127.0.0.1 (to give the app its PORT and PUBLIC_URL before it starts). */
export async function freePort(): Promise<number> {
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = server.port as number;
  await server.stop(true);
  return port;
}

/** Makes a CA and a certificate for 127.0.0.1 and localhost signed by it, in `dir`. */
function makeCertificates(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const days = ['-days', '2'];
  ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    ...days,
    '-subj',
    '/CN=Classroom test CA',
  );
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    ...days,
    '-extfile',
    'san.ext',
  );
  return { caCertPath: join(dir, 'ca.pem'), keyPath: join(dir, 'server.key'), certPath: join(dir, 'server.pem') };
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<OidcProvider> {
  const dir = mkdtempSync(join(tmpdir(), 'classroom-oidc-'));
  const { caCertPath, keyPath, certPath } = makeCertificates(dir);
  const ca = readFileSync(caCertPath, 'utf8');
  const clientId = options.clientId ?? 'classroom-test';
  const clientSecret = options.clientSecret ?? `secret-${crypto.randomUUID()}`;
  const accounts = new Map<string, OidcClaims>();
  const requests: string[] = [];

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `test-${crypto.randomUUID().slice(0, 8)}`;
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  // Listen first: the issuer names the port.
  const server = createHttpsServer({ key: readFileSync(keyPath), cert: readFileSync(certPath) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const claimsOf = (id: string): OidcClaims =>
    accounts.get(id) ?? { email: `${id}@school.test`, email_verified: true, name: id };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [privateJwk] },
    cookies: { keys: [crypto.randomUUID()] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    // Every claim in the ID token, as the big providers do for the code flow.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', 'hd', 'groups', 'roles'],
      email: ['email', 'email_verified'],
      profile: ['name', 'picture'],
    },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx: unknown, id: string) {
      return { accountId: id, claims: async () => ({ sub: id, ...claimsOf(id) }) };
    },
    // First-party client: no consent screen; the grant covers what was asked.
    async loadExistingGrant(ctx: any) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      grant.addOIDCClaims(['email', 'email_verified', 'name', 'picture', 'hd', 'groups', 'roles']);
      await grant.save();
      return grant;
    },
  });
  provider.proxy = false;
  const callback = provider.callback();
  server.on('request', (req, res) => {
    requests.push((req.url ?? '').split('?')[0]);
    callback(req, res);
  });

  return {
    issuer,
    caCertPath,
    clientId,
    clientSecret,
    appEnv: () => ({
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      NODE_EXTRA_CA_CERTS: caCertPath,
    }),
    setAccount(id, claims) {
      accounts.set(id, claims);
    },
    signJwt: (payload) => new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(privateKey),
    fetch: (url, init) => fetch(url, { ...init, tls: { ca } } as RequestInit),
    loginThrough: (url, login, loginOptions = {}) => loginThrough(issuer, ca, url, login, loginOptions.cancel ?? false),
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function loginThrough(issuer: string, ca: string, start: string, login: string, cancel: boolean) {
  const jar = new Map<string, string>();
  let url = start;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      body,
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      tls: { ca },
    } as RequestInit);
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    body = undefined;
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin !== issuer) return next.href;
      url = next.href;
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) throw new Error(`The provider answered ${response.status}: ${html.slice(0, 300)}`);
    if (cancel) {
      const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
      if (!abort) throw new Error('No Cancel link on the provider page');
      url = new URL(abort.replaceAll('&amp;', '&'), url).href;
      continue;
    }
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`No form on the provider page: ${html.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).href;
    body = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
  }
  throw new Error('Too many steps at the provider');
}
