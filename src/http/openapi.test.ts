import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPEC_API_CALLS } from '../contract/spec-api';
import { startHarness } from '../test/harness';

let h: Awaited<ReturnType<typeof startHarness>>;
type Operation = { parameters?: { name: string; in: string }[]; requestBody?: unknown };
let document: { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> };

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
