import { expect } from 'bun:test';
import type { Harness } from './harness';

/** One request that must be refused: exactly `status`, our error shape, and not one row changed. */
export type Refusal = {
  name: string;
  /** A token; none for an anonymous caller. */
  as?: string;
  method: string;
  path: string;
  body?: unknown;
  status: number;
  /** For a 400: the field the answer names. */
  field?: string;
  /** The stable error code, when the case is about one. */
  code?: string;
};

/**
 * Plays a refused request and checks what PocketBase's tests/api.go checks of a failure: the documented
 * status, the error shape, and that every table holds exactly what it held before.
 */
export async function expectRefused(h: Harness, refusal: Refusal) {
  await h.jobsSettled();
  const before = h.snapshot();
  const result = await h.api(refusal.method, refusal.path, { as: refusal.as, body: refusal.body });
  expect({ case: refusal.name, status: result.status }).toEqual({ case: refusal.name, status: refusal.status });
  expect(typeof result.json?.error).toBe('string');
  expect(result.json.message).toBe(result.json.error);
  if (refusal.field)
    expect({ case: refusal.name, field: typeof result.json.fields?.[refusal.field] }).toEqual({
      case: refusal.name,
      field: 'string',
    });
  if (refusal.code) expect(result.json.code).toBe(refusal.code);
  expect(h.snapshot()).toEqual(before);
  return result;
}

export type PermissionRow<Who extends string> = {
  name: string;
  method: string;
  path: string;
  /** The body, or a function of the caller (for routes that name the caller, like enrolling oneself). */
  body?: unknown | ((who: Who) => unknown);
  allowed: Who[];
  /** What a refused caller gets when it differs from the table's defaults. */
  refused?: Partial<Record<Who, number>>;
};

/**
 * Calls each route as everyone. Each refused caller gets exactly its documented status (401 without a
 * token) and changes nothing; then each allowed caller gets a 2xx.
 */
export async function expectPermissions<Who extends string>(
  h: Harness,
  tokens: Record<Who, string | undefined>,
  rows: PermissionRow<Who>[],
  defaults: Partial<Record<Who, number>>,
) {
  const bodyFor = (row: PermissionRow<Who>, who: Who) =>
    typeof row.body === 'function' ? (row.body as (who: Who) => unknown)(who) : row.body;
  for (const row of rows) {
    for (const [who, token] of Object.entries(tokens) as [Who, string | undefined][]) {
      if (row.allowed.includes(who)) continue;
      await expectRefused(h, {
        name: `${row.name} as ${who}`,
        as: token,
        method: row.method,
        path: row.path,
        body: bodyFor(row, who),
        status: token === undefined ? 401 : (row.refused?.[who] ?? defaults[who] ?? 404),
      });
    }
    for (const who of row.allowed) {
      const result = await h.api(row.method, row.path, { as: tokens[who], body: bodyFor(row, who) });
      expect({
        case: `${row.name} as ${who}`,
        ok: result.status < 300,
        body: result.status < 300 ? '' : result.text,
      }).toEqual({ case: `${row.name} as ${who}`, ok: true, body: '' });
    }
  }
}
