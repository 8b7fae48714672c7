import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens';
import { SPEC_API_CALLS } from '../contract/spec-api';
import { startHarness } from '../test/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
type Response = { description?: string; content?: Record<string, { schema?: Record<string, unknown> }> };
type Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: unknown;
  responses?: Record<string, Response>;
};
let document: {
  openapi: string;
  info: { version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { description?: string }> };
};

beforeAll(async () => {
  h = await startHarness();
  const response = await fetch(`${h.baseUrl}/api/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
});
afterAll(() => h?.close());

/** Hono's `/api/courses/:id` is OpenAPI's `/api/courses/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

test('the description is OpenAPI 3.1 and carries the version', () => {
  expect(document.openapi).toBe('3.1.0');
  expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
});

test('every route the app mounts is described, with its method', () => {
  const mounted = h.app.routes.filter(
    (route) => route.method !== 'ALL' && !route.path.includes('*') && !route.path.startsWith('/api/openapi.json'),
  );
  const apiRoutes = mounted.filter((route) => route.path !== '/api/docs');
  expect(apiRoutes.length).toBeGreaterThan(50);
  const missing = apiRoutes
    .filter((route) => !document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()])
    .map((route) => `${route.method} ${route.path}`);
  expect(missing).toEqual([]);
});

test("every call in the spec's API table is there with its method", () => {
  expect(SPEC_API_CALLS.length).toBe(27);
  const missing = SPEC_API_CALLS.filter(([method, path]) => !document.paths[path]?.[method.toLowerCase()]).map(
    ([method, path]) => `${method} ${path}`,
  );
  expect(missing).toEqual([]);
  // Where the spec sits beside the project (not in every clone), the list is its table, row for row.
  const specFile = join(import.meta.dir, '..', '..', '..', 'shared', 'spec', 'product-spec.md');
  if (existsSync(specFile)) {
    const rows = [...readFileSync(specFile, 'utf8').matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/api\/\S+) \|/gm)];
    expect(rows.map(([, method, path]) => [method, path])).toEqual(SPEC_API_CALLS.map(([m, p]) => [m, p]));
  }
});

test('bodies and parameters come from the zod schemas that validate them', () => {
  const login = document.paths['/api/users/login']?.post as { requestBody: { content: Record<string, unknown> } };
  const schema = JSON.stringify(login.requestBody.content['application/json']);
  expect(schema).toContain('"email"');
  expect(schema).toContain('"password"');
  const course = document.paths['/api/courses/{id}']?.get;
  expect(course?.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path' }));
});

test('every /api route declares what it answers: a 2xx (or 3xx) with a schema for every body', () => {
  const problems: string[] = [];
  let jsonAnswers = 0;
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      const answers = Object.entries(operation.responses ?? {}).filter(([status]) => /^[23]\d\d$/.test(status));
      if (answers.length === 0) problems.push(`${method} ${path}: no 2xx or 3xx answer`);
      for (const [status, answer] of answers) {
        const bodies = Object.entries(answer.content ?? {});
        // A 200 always has a body; 201 (tus makes an upload), 204 and the redirects may have none, said in words.
        if (bodies.length === 0 && (status === '200' || !answer.description)) {
          problems.push(`${method} ${path} ${status}: no body described`);
        }
        for (const [media, { schema }] of bodies) {
          if (!schema?.type && !schema?.$ref && !schema?.anyOf) problems.push(`${method} ${path} ${status}: no schema`);
          if (media === 'application/json') jsonAnswers++;
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(jsonAnswers).toBeGreaterThan(50);
  // The schemas are the contract's: a class carries its fields, a lecture list is an array of lectures.
  const course = JSON.stringify(document.paths['/api/courses/{id}']?.get?.responses?.['200']);
  for (const field of ['courseName', 'classCode', 'teacherId', 'createdAt']) expect(course).toContain(`"${field}"`);
  const lectures = document.paths['/api/lectures/course/{courseId}']?.get?.responses?.['200']?.content;
  expect(lectures?.['application/json']?.schema?.type).toBe('array');
});

test('the token cookie is described as it is set: not HttpOnly, SameSite=Lax, Path=/, Max-Age, Secure over https', async () => {
  const described = document.components.securitySchemes.cookie?.description ?? '';
  expect(document.info.description).toContain(described);
  expect(described).not.toMatch(/(?<!not )`HttpOnly`/);
  for (const words of ['not `HttpOnly`', '`SameSite=Lax`', '`Path=/`', `\`Max-Age=${TOKEN_LIFETIME_SECONDS}\``]) {
    expect(described).toContain(words);
  }
  expect(described).toContain('`Secure` when the request reached the server over https');
  expect(described).toContain('`X-Forwarded-Proto`');
  // And the server sets it so: over plain http, then behind a proxy that ended TLS.
  const account = await h.signUp('student');
  const tokenCookie = async (headers: Record<string, string>) => {
    const login = await fetch(`${h.baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(login.status).toBe(200);
    const line = login.headers.getSetCookie().find((cookie) => cookie.startsWith('token='));
    return (line ?? '').split(';').map((part) => part.trim());
  };
  const plain = await tokenCookie({});
  expect(plain).toContain('Path=/');
  expect(plain).toContain(`Max-Age=${TOKEN_LIFETIME_SECONDS}`);
  expect(plain).toContain('SameSite=Lax');
  expect(plain.some((part) => /^httponly$/i.test(part))).toBe(false);
  expect(plain.some((part) => /^secure$/i.test(part))).toBe(false);
  const proxied = await tokenCookie({ 'x-forwarded-proto': 'https' });
  expect(proxied).toContain('Secure');
  expect(proxied.some((part) => /^httponly$/i.test(part))).toBe(false);
});

test('/api/docs is a reference page served by the app itself (no CDN)', async () => {
  const page = await fetch(`${h.baseUrl}/api/docs`);
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('/api-docs/swagger-ui-bundle.js');
  expect(html).not.toMatch(/https?:\/\//);
  const bundle = await fetch(`${h.baseUrl}/api-docs/swagger-ui-bundle.js`);
  expect(bundle.status).toBe(200);
  expect(bundle.headers.get('content-type')).toContain('javascript');
  await bundle.arrayBuffer();
});
