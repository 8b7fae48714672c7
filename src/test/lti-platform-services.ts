/**
 * The service side of the test LMS (src/test/lti-platform.ts mounts it; `startLtiServices` runs it alone): what an
 * LMS answers to a tool's LTI Advantage calls, over real HTTP.
 *
 * - **Token endpoint** `POST /token`: client credentials with a JWT client assertion, checked against the tool's own
 *   key set (`toolJwksUrl`, fetched over HTTP like any LMS does) with iss = sub = the client id and aud = this URL.
 *   A token carries the scopes asked for; every service checks its scope.
 * - **Names and Role Provisioning** `GET /nrps/<context>/memberships`: the context's members set by `setMembers`,
 *   `pageSize` per page (2 unless told), the next page in a `Link: <…>; rel="next"` header, as Canvas pages.
 * - **Assignment and Grade** `GET|POST /ags/<context>/lineitems`; a line item's URL is Moodle's shape, with a query
 *   string (`…/lineitems/<n>/lineitem?type_id=2`), so its scores URL is `…/lineitem/scores?type_id=2`. A score posted
 *   anywhere else is a 404. `failScores(n)` answers the next n score posts with 500; `scores` lists those received.
 */
import { createRemoteJWKSet, jwtVerify } from 'jose';

export const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';
export const LINEITEM_MEDIA_TYPE = 'application/vnd.ims.lis.v2.lineitem+json';

export type LtiMember = {
  user_id: string;
  roles: string[];
  status?: 'Active' | 'Inactive' | 'Deleted';
  name?: string;
  email?: string;
};

export type ReceivedScore = {
  contextId: string;
  lineItem: string;
  /** The query string the score was posted with (Moodle's `type_id` must survive). */
  query: string;
  contentType: string;
  body: {
    userId: string;
    scoreGiven: number;
    scoreMaximum: number;
    activityProgress: string;
    gradingProgress: string;
    timestamp: string;
  };
};

export type LineItem = {
  id: string;
  label: string;
  scoreMaximum: number;
  resourceLinkId?: string;
  resourceId?: string;
  tag?: string;
};

export const LEARNER = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner';
export const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';

export type LtiServices = ReturnType<typeof ltiPlatformServices>;

/**
 * The service endpoints, as a fetch handler that answers undefined for a path it does not serve (so the LMS's own
 * launch pages can share its server). `baseUrl()` is the server's address, once it listens.
 */
export function ltiPlatformServices(options: {
  baseUrl: () => string;
  clientId: string;
  toolJwksUrl: () => string;
  pageSize?: number;
}) {
  const pageSize = options.pageSize ?? 2;
  const tokens = new Map<string, Set<string>>();
  const members = new Map<string, LtiMember[]>();
  const lineItems = new Map<string, LineItem[]>();
  const scores: ReceivedScore[] = [];
  const requests: string[] = [];
  let scoreFailures = 0;
  let jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

  function authorized(request: Request, scope: string) {
    const token = (request.headers.get('authorization') ?? '').replace(/^Bearer /, '');
    return tokens.get(token)?.has(scope) === true;
  }

  async function token(request: Request) {
    const form = new URLSearchParams(await request.text());
    if (form.get('grant_type') !== 'client_credentials') return json({ error: 'unsupported_grant_type' }, 400);
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
      return json({ error: 'invalid_client' }, 401);
    }
    jwks ??= createRemoteJWKSet(new URL(options.toolJwksUrl()));
    try {
      await jwtVerify(form.get('client_assertion') ?? '', jwks, {
        issuer: options.clientId,
        subject: options.clientId,
        audience: `${options.baseUrl()}/token`,
        algorithms: ['RS256'],
        requiredClaims: ['jti', 'exp', 'iat'],
      });
    } catch {
      return json({ error: 'invalid_client' }, 401);
    }
    const accessToken = crypto.randomUUID();
    tokens.set(accessToken, new Set((form.get('scope') ?? '').split(' ').filter(Boolean)));
    return json({ access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: form.get('scope') });
  }

  function memberships(request: Request, contextId: string) {
    if (!authorized(request, 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly')) {
      return json({ error: 'unauthorized' }, 401);
    }
    const url = new URL(request.url);
    const page = Number(url.searchParams.get('page') ?? '1');
    const all = members.get(contextId) ?? [];
    const slice = all.slice((page - 1) * pageSize, page * pageSize);
    const headers: Record<string, string> = { 'content-type': NRPS_MEDIA_TYPE };
    if (page * pageSize < all.length) {
      headers.link = `<${options.baseUrl()}/nrps/${contextId}/memberships?page=${page + 1}>; rel="next"`;
    }
    return new Response(
      JSON.stringify({ id: url.href, context: { id: contextId, title: contextId }, members: slice }),
      { headers },
    );
  }

  async function lineItemsOf(request: Request, contextId: string) {
    if (!authorized(request, 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem')) {
      return json({ error: 'unauthorized' }, 401);
    }
    const items = lineItems.get(contextId) ?? [];
    if (request.method === 'GET')
      return json(items, 200, { 'content-type': 'application/vnd.ims.lis.v2.lineitemcontainer+json' });
    const body = (await request.json()) as Omit<LineItem, 'id'>;
    if (typeof body.label !== 'string' || typeof body.scoreMaximum !== 'number') return json({ error: 'bad' }, 400);
    const item = {
      ...body,
      id: `${options.baseUrl()}/ags/${contextId}/lineitems/${items.length + 1}/lineitem?type_id=2`,
    };
    lineItems.set(contextId, [...items, item]);
    return json(item, 201, { 'content-type': LINEITEM_MEDIA_TYPE });
  }

  async function score(request: Request, contextId: string, lineItem: string) {
    if (!authorized(request, 'https://purl.imsglobal.org/spec/lti-ags/scope/score')) {
      return json({ error: 'unauthorized' }, 401);
    }
    const url = new URL(request.url);
    const item = (lineItems.get(contextId) ?? []).find(
      (each) => each.id === `${options.baseUrl()}/ags/${contextId}/lineitems/${lineItem}/lineitem${url.search}`,
    );
    // Moodle finds the line item by its query: a scores URL that lost it names nothing.
    if (!item || url.searchParams.get('type_id') !== '2') return json({ error: 'no such line item' }, 404);
    if (scoreFailures > 0) {
      scoreFailures--;
      return json({ error: 'the gradebook is down' }, 500);
    }
    scores.push({
      contextId,
      lineItem: item.id,
      query: url.search,
      contentType: request.headers.get('content-type') ?? '',
      body: (await request.json()) as ReceivedScore['body'],
    });
    return new Response(null, { status: 204 });
  }

  return {
    /** Answers a request to a service path, or undefined for any other path. */
    async fetch(request: Request): Promise<Response | undefined> {
      const { pathname } = new URL(request.url);
      const post = request.method === 'POST';
      const nrps = pathname.match(/^\/nrps\/([^/]+)\/memberships$/);
      const items = pathname.match(/^\/ags\/([^/]+)\/lineitems$/);
      const scoresOf = pathname.match(/^\/ags\/([^/]+)\/lineitems\/(\d+)\/lineitem\/scores$/);
      let answer: Promise<Response> | Response | undefined;
      if (pathname === '/token' && post) answer = token(request);
      else if (nrps && request.method === 'GET') answer = memberships(request, nrps[1] as string);
      else if (items) answer = lineItemsOf(request, items[1] as string);
      else if (scoresOf && post) answer = score(request, scoresOf[1] as string, scoresOf[2] as string);
      if (answer) requests.push(pathname);
      return answer;
    },
    /** The token endpoint: the platform's `auth_token_url`. */
    tokenUrl: () => `${options.baseUrl()}/token`,
    /** A context's memberships URL (the launch's NRPS claim `context_memberships_url`). */
    membershipsUrl: (contextId: string) => `${options.baseUrl()}/nrps/${contextId}/memberships`,
    /** A context's line items URL (the launch's AGS claim `lineitems`). */
    lineItemsUrl: (contextId: string) => `${options.baseUrl()}/ags/${contextId}/lineitems`,
    setMembers(contextId: string, list: LtiMember[]) {
      members.set(contextId, list);
    },
    lineItems: (contextId: string) => lineItems.get(contextId) ?? [],
    /** Every score received, oldest first. */
    scores,
    /** Paths called, in order (for "was it called" and "how many pages" assertions). */
    requests,
    /** Answers the next `count` score posts with 500. */
    failScores(count: number) {
      scoreFailures = count;
    },
  };
}

/** The service endpoints alone on a loopback port (for tests that need no launch pages). */
export function startLtiServices(options: { clientId: string; toolJwksUrl: () => string; pageSize?: number }) {
  let base = '';
  const services = ltiPlatformServices({ ...options, baseUrl: () => base });
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => (await services.fetch(request)) ?? new Response('Not found', { status: 404 }),
  });
  base = `http://127.0.0.1:${server.port}`;
  return { ...services, url: base, issuer: base, stop: () => server.stop(true) };
}
