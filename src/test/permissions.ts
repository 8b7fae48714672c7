import { expect } from 'bun:test';
import type { Harness } from './harness';

export type PermissionRow<Who extends string> = {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  allowed: Who[];
};

/** Calls each route as everyone and checks that exactly the allowed callers get a 2xx (the rest 401/403/404). */
export async function expectPermissions<Who extends string>(
  h: Harness,
  tokens: Record<Who, string | undefined>,
  rows: PermissionRow<Who>[],
) {
  for (const row of rows) {
    const allowed: string[] = [];
    for (const [name, token] of Object.entries(tokens) as [Who, string | undefined][]) {
      const result = await h.api(row.method, row.path, { as: token, body: row.body });
      if (result.status < 300) allowed.push(name);
      else expect([401, 403, 404]).toContain(result.status);
      if (token === undefined) expect(result.status).toBe(401);
    }
    expect({ row: row.name, allowed: allowed.sort() }).toEqual({ row: row.name, allowed: [...row.allowed].sort() });
  }
}
