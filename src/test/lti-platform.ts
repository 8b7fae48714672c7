/**
 * A small LTI 1.3 platform (a test LMS) for the tests, over real HTTP on its own loopback address (127.0.0.2 by
 * default, so a page of it framing the app on localhost is cross-site). It has its own RS256 keys and key set,
 * signs real id_tokens with `jose`, answers the tool's login as an LMS's OIDC endpoint does (a form post of the
 * id_token to the tool's redirect_uri), receives and checks deep-linking answers, and shows the tool in an iframe
 * with LTI Platform Storage (lti.put_data / lti.get_data) answered by its page.
 *
 * ```ts
 * const lms = await startLtiPlatform();
 * await lms.register(h.api, adminToken);                 // POST /api/admin/lti/platforms with its URLs
 * const hint = lms.prepareLaunch({ sub: 'ann', roles: [ROLES.learner], context: { id: 'c1', title: 'Biology' } });
 * const launch = await lms.playLaunch(h.baseUrl, hint);  // login → auth → launch, as a browser would with fetch
 * ```
 *
 * Its token, NRPS and AGS endpoints are `lms.services` (src/test/lti-platform-services.ts); a test adds any other
 * endpoint with `lms.route(method, path, handler)`.
 */
import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, exportJWK, generateKeyPair, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Api } from './harness';
import { ltiPlatformServices } from './lti-platform-services';

export const ROLES = {
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  mentor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor',
  administrator: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
} as const;

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';

export type LaunchSpec = {
  sub: string;
  name?: string;
  email?: string;
  roles: string[];
  context?: { id: string; title?: string };
  resourceLink?: { id: string; title?: string };
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest' | 'LtiSubmissionReviewRequest';
  custom?: Record<string, string>;
  /** Deep linking: the `data` to get back. */
  deepLinkData?: string;
  /** Extra claims (AGS, NRPS endpoints...) merged into the id_token. */
  claims?: Record<string, unknown>;
  /** What goes wrong, for the refusal tests. */
  tamper?: {
    otherKey?: boolean;
    audience?: string;
    expired?: boolean;
    nonce?: string;
    deploymentId?: string;
  };
};

export type DeepLinkReturn = { payload: JWTPayload & Record<string, unknown>; jwt: string };

type Handler = (request: Request) => Response | Promise<Response>;

export type LtiPlatform = Awaited<ReturnType<typeof startLtiPlatform>>;

export async function startLtiPlatform(options: { hostname?: string; clientId?: string; deploymentId?: string } = {}) {
  const hostname = options.hostname ?? '127.0.0.2';
  const clientId = options.clientId ?? `tool-${randomBytes(4).toString('hex')}`;
  const deploymentId = options.deploymentId ?? 'deployment-1';
  const kid = `lms-${randomBytes(4).toString('hex')}`;
  const keys = await generateKeyPair('RS256', { extractable: true });
  const strangerKeys = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(keys.publicKey)), kid, alg: 'RS256', use: 'sig' };
  const launches = new Map<string, LaunchSpec>();
  const deepLinkReturns: DeepLinkReturn[] = [];
  const extraRoutes = new Map<string, Handler>();
  let toolBase = '';
  let pageOrigin = '';

  const html = (body: string, status = 200) =>
    new Response(
      `<!doctype html><html><head><meta charset="utf-8"><title>Test LMS</title></head><body>${body}</body></html>`,
      {
        status,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      },
    );
  const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

  async function idTokenFor(spec: LaunchSpec, nonce: string) {
    const tamper = spec.tamper ?? {};
    const messageType = spec.messageType ?? 'LtiResourceLinkRequest';
    const claims: Record<string, unknown> = {
      nonce: tamper.nonce ?? nonce,
      name: spec.name,
      email: spec.email,
      [`${LTI}message_type`]: messageType,
      [`${LTI}version`]: '1.3.0',
      [`${LTI}deployment_id`]: tamper.deploymentId ?? deploymentId,
      [`${LTI}target_link_uri`]: `${toolBase}/api/lti/launch`,
      [`${LTI}roles`]: spec.roles,
      ...(spec.context && { [`${LTI}context`]: { id: spec.context.id, title: spec.context.title } }),
      ...(spec.resourceLink && { [`${LTI}resource_link`]: spec.resourceLink }),
      ...(spec.custom && { [`${LTI}custom`]: spec.custom }),
      ...(messageType === 'LtiDeepLinkingRequest' && {
        'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings': {
          deep_link_return_url: `${platform.issuer}/deep-link-return`,
          accept_types: ['ltiResourceLink'],
          accept_presentation_document_targets: ['iframe', 'window'],
          data: spec.deepLinkData,
        },
      }),
      ...spec.claims,
    };
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .setIssuer(platform.issuer)
      .setSubject(spec.sub)
      .setAudience(tamper.audience ?? clientId)
      .setIssuedAt(tamper.expired ? now - 7200 : now)
      .setExpirationTime(tamper.expired ? now - 3600 : now + 300)
      .sign(tamper.otherKey ? strangerKeys.privateKey : keys.privateKey);
  }

  /** The OIDC authorization endpoint: the tool's login comes here and goes back as a form post. */
  async function authorize(url: URL) {
    const query = Object.fromEntries(url.searchParams);
    const spec = launches.get(query.login_hint ?? '');
    const problems = [
      query.scope !== 'openid' && 'scope',
      query.response_type !== 'id_token' && 'response_type',
      query.response_mode !== 'form_post' && 'response_mode',
      query.prompt !== 'none' && 'prompt',
      query.client_id !== clientId && 'client_id',
      query.redirect_uri !== `${toolBase}/api/lti/launch` && 'redirect_uri',
      !query.state && 'state',
      !query.nonce && 'nonce',
      !spec && 'login_hint',
    ].filter(Boolean);
    if (problems.length > 0 || !spec) return html(`<p>invalid_request: ${problems.join(', ')}</p>`, 400);
    const idToken = await idTokenFor(spec, query.nonce);
    platform.lastLogin = { idToken, state: query.state, nonce: query.nonce, messageHint: query.lti_message_hint };
    return html(`<form id="launch" method="post" action="${escapeHtml(query.redirect_uri)}">
<input type="hidden" name="id_token" value="${escapeHtml(idToken)}"><input type="hidden" name="state" value="${escapeHtml(query.state)}">
<button type="submit">Launch</button></form><script>document.getElementById('launch').submit();</script>`);
  }

  /** A deep-linking answer: checked against the tool's published key set, then kept for the test. */
  async function deepLinkReturn(request: Request) {
    const form = await request.formData();
    const jwt = String(form.get('JWT') ?? '');
    try {
      const { payload } = await jwtVerify(jwt, createRemoteJWKSet(new URL(`${toolBase}/api/lti/jwks`)), {
        issuer: clientId,
        audience: platform.issuer,
      });
      deepLinkReturns.push({ payload: payload as DeepLinkReturn['payload'], jwt });
      return html('<h1>Content added</h1>');
    } catch (error) {
      return html(`<h1>Refused</h1><p>${escapeHtml(String(error))}</p>`, 400);
    }
  }

  /**
   * The course page: the tool in an iframe, started at its login initiation, with the page itself as the
   * Platform Storage frame (`lti_storage_target=_parent`).
   */
  function coursePage(url: URL) {
    const hint = url.searchParams.get('hint') ?? '';
    const storage = url.searchParams.get('storage') !== 'off';
    const login = new URL(`${toolBase}/api/lti/login`);
    login.searchParams.set('iss', platform.issuer);
    login.searchParams.set('login_hint', hint);
    login.searchParams.set('target_link_uri', `${toolBase}/api/lti/launch`);
    login.searchParams.set('client_id', clientId);
    login.searchParams.set('lti_deployment_id', deploymentId);
    if (storage) login.searchParams.set('lti_storage_target', '_parent');
    return html(`<h1>Test LMS course</h1>
<iframe title="Classroom" name="tool" src="${escapeHtml(login.href)}" style="width:1200px;height:800px;border:0" allow="fullscreen; autoplay"></iframe>
<script>
var store = {}, toolOrigin = ${JSON.stringify(new URL(toolBase).origin)};
window.addEventListener('message', function (event) {
  var data = event.data || {};
  if (event.origin !== toolOrigin) return;
  if (data.subject === 'lti.put_data') {
    store[data.key] = data.value;
    event.source.postMessage({ subject: 'lti.put_data.response', message_id: data.message_id, key: data.key, value: data.value }, event.origin);
  } else if (data.subject === 'lti.get_data') {
    event.source.postMessage({ subject: 'lti.get_data.response', message_id: data.message_id, key: data.key, value: store[data.key] }, event.origin);
  }
});
</script>`);
  }

  /** Dynamic Registration: the platform's OpenID configuration, and its registration endpoint. */
  const registrationToken = `reg-${randomBytes(8).toString('hex')}`;
  const registrations: Record<string, unknown>[] = [];
  const openidConfiguration = () => ({
    issuer: pageOrigin,
    authorization_endpoint: `${pageOrigin}/auth`,
    token_endpoint: `${pageOrigin}/token`,
    jwks_uri: `${pageOrigin}/jwks`,
    registration_endpoint: `${pageOrigin}/register`,
    scopes_supported: ['openid'],
    response_types_supported: ['id_token'],
    id_token_signing_alg_values_supported: ['RS256'],
    'https://purl.imsglobal.org/spec/lti-platform-configuration': {
      product_family_code: 'test-lms',
      version: '1.0',
      messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
    },
  });
  async function registerTool(request: Request) {
    if (request.headers.get('authorization') !== `Bearer ${registrationToken}`) {
      return Response.json({ error: 'invalid_token' }, { status: 401 });
    }
    const body = (await request.json()) as Record<string, unknown>;
    registrations.push(body);
    const toolConfiguration = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
    return Response.json({
      ...body,
      client_id: clientId,
      [toolConfiguration]: { ...(body[toolConfiguration] as object), deployment_id: deploymentId },
    });
  }

  // Token, NRPS and AGS endpoints (src/test/lti-platform-services.ts), checking assertions against the tool's key set.
  const services = ltiPlatformServices({
    baseUrl: () => pageOrigin,
    clientId,
    toolJwksUrl: () => `${toolBase}/api/lti/jwks`,
  });
  const server = Bun.serve({
    port: 0,
    hostname,
    async fetch(request) {
      const url = new URL(request.url);
      const extra = extraRoutes.get(`${request.method} ${url.pathname}`);
      if (extra) return extra(request);
      const served = await services.fetch(request);
      if (served) return served;
      if (url.pathname === '/jwks') return Response.json({ keys: [publicJwk] });
      if (url.pathname === '/auth') return authorize(url);
      if (url.pathname === '/token') return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
      if (url.pathname === '/deep-link-return' && request.method === 'POST') return deepLinkReturn(request);
      if (url.pathname === '/course') return coursePage(url);
      if (url.pathname === '/.well-known/openid-configuration') return Response.json(openidConfiguration());
      if (url.pathname === '/register' && request.method === 'POST') return registerTool(request);
      return new Response('not found', { status: 404 });
    },
  });
  pageOrigin = `http://${hostname}:${server.port}`;

  const platform = {
    issuer: pageOrigin,
    clientId,
    /** Its LTI Advantage services: rosters to set, line items and scores received, failures to cause. */
    services,
    deploymentId,
    deepLinkReturns,
    /** What the tool sent to the registration endpoint, and the token it must send. */
    registrations,
    registrationToken,
    openidConfigurationUrl: () => `${pageOrigin}/.well-known/openid-configuration`,
    /** The id_token and state of the last login answered: a test posts them again (replay) or changes them. */
    lastLogin: undefined as undefined | { idToken: string; state: string; nonce: string; messageHint?: string },
    /** The tool's Platform Storage page of the last login played with a storage target. */
    lastStoragePage: undefined as string | undefined,
    /** The URLs our registration form asks for. */
    registration() {
      return {
        name: 'Test LMS',
        issuer: pageOrigin,
        clientId,
        authLoginUrl: `${pageOrigin}/auth`,
        authTokenUrl: `${pageOrigin}/token`,
        jwksUrl: `${pageOrigin}/jwks`,
        deploymentIds: [deploymentId],
      };
    },
    /** Tells the test LMS where the tool is (its login and launch URLs are under it). */
    useTool(baseUrl: string) {
      toolBase = baseUrl;
    },
    /** Registers this LMS with the server through the administrator's console API. */
    async register(api: Api, adminToken: string, baseUrl: string) {
      toolBase = baseUrl;
      const answer = await api('POST', '/api/admin/lti/platforms', { as: adminToken, body: platform.registration() });
      if (answer.status !== 201) throw new Error(`registering the test LMS failed: ${answer.text}`);
      return answer.json as { _id: string };
    },
    /** The next login with this hint launches as `spec` says. */
    prepareLaunch(spec: LaunchSpec) {
      const hint = `hint-${randomBytes(6).toString('hex')}`;
      launches.set(hint, spec);
      return hint;
    },
    /** A page of the LMS showing the tool in an iframe (Platform Storage on unless `storage: false`). */
    coursePageUrl(hint: string, storage = true) {
      return `${pageOrigin}/course?hint=${encodeURIComponent(hint)}${storage ? '' : '&storage=off'}`;
    },
    /** Adds an endpoint (NRPS, AGS...): `route('GET', '/nrps/c1', handler)`. */
    route(method: string, path: string, handler: Handler) {
      extraRoutes.set(`${method} ${path}`, handler);
    },
    /** A JWT signed with the LMS's key (for tests that make their own). */
    sign(payload: JWTPayload, audience: string) {
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(pageOrigin)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(keys.privateKey);
    },
    /**
     * Plays a launch as a browser without scripts would, with fetch: the tool's login (its state cookie kept), the
     * LMS's auth endpoint, the form post to the tool's launch. `withoutCookie` drops the state cookie.
     */
    async playLaunch(
      baseUrl: string,
      hint: string,
      play: { withoutCookie?: boolean; withoutState?: boolean; storageTarget?: string } = {},
    ) {
      toolBase = baseUrl;
      const login = new URL(`${baseUrl}/api/lti/login`);
      login.searchParams.set('iss', pageOrigin);
      login.searchParams.set('login_hint', hint);
      login.searchParams.set('target_link_uri', `${baseUrl}/api/lti/launch`);
      login.searchParams.set('client_id', clientId);
      if (play.storageTarget) login.searchParams.set('lti_storage_target', play.storageTarget);
      const started = await fetch(login, { redirect: 'manual' });
      const cookie = started.headers
        .getSetCookie()
        .map((line) => line.split(';')[0])
        .join('; ');
      let next = started.headers.get('location');
      // With a storage target the login answers a page that keeps the state in Platform Storage, then goes on.
      if (play.storageTarget && started.status === 200) {
        const page = await started.text();
        platform.lastStoragePage = page;
        const found = /next = ("[^"]*")/.exec(page)?.[1];
        next = found ? (JSON.parse(found) as string) : null;
      } else if (started.status !== 302) throw new Error(`login answered ${started.status}: ${await started.text()}`);
      const auth = await fetch(next as string);
      const page = await auth.text();
      const idToken = /name="id_token" value="([^"]+)"/.exec(page)?.[1];
      const state = /name="state" value="([^"]+)"/.exec(page)?.[1];
      if (!idToken || !state) throw new Error(`the test LMS did not answer the login: ${page}`);
      return platform.postLaunch(baseUrl, {
        idToken,
        state: play.withoutState ? undefined : state,
        cookie: play.withoutCookie ? '' : cookie,
      });
    },
    /** Posts an id_token (and state, with the cookie) to the tool's launch, as the LMS's form does. */
    async postLaunch(baseUrl: string, launch: { idToken: string; state?: string; cookie: string }) {
      const body = new URLSearchParams({ id_token: launch.idToken });
      if (launch.state !== undefined) body.set('state', launch.state);
      const response = await fetch(`${baseUrl}/api/lti/launch`, {
        method: 'POST',
        body,
        redirect: 'manual',
        headers: { cookie: launch.cookie, origin: pageOrigin, 'accept-language': 'en' },
      });
      const text = await response.text();
      const token = /"token":"([^"]+)"/.exec(text)?.[1];
      const destination = /"destination":"([^"]+)"/.exec(text)?.[1];
      return {
        status: response.status,
        html: text,
        headers: response.headers,
        token,
        destination,
        cookie: launch.cookie,
      };
    },
    close() {
      server.stop(true);
    },
  };
  return platform;
}
