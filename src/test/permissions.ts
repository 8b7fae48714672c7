import { expect } from 'bun:test';
import type { Harness } from './harness';

export type PermissionRow<Who extends string> = {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  allowed: Who[];
  /** What everyone else gets (default: 401 without a token, else 404 for outsiders and 403 for members). */
  refused?: Partial<Record<Who | 'anonymous', number>>;
};

/**
 * Calls each route as everyone. The allowed callers get a 2xx; each refused caller gets exactly its
 * documented status, and after a refused request every table holds exactly what it held before.
 */
export async function expectPermissions<Who extends string>(
  h: Harness,
  tokens: Record<Who, string | undefined>,
  rows: PermissionRow<Who>[],
  defaults: Partial<Record<Who, number>>,
) {
  for (const row of rows) {
    const allowed: string[] = [];
    for (const [name, token] of Object.entries(tokens) as [Who, string | undefined][]) {
      if (row.allowed.includes(name)) continue;
      const before = h.snapshot();
      const result = await h.api(row.method, row.path, { as: token, body: row.body });
      const expected = token === undefined ? 401 : (row.refused?.[name] ?? defaults[name] ?? 404);
      expect({ row: row.name, as: name, status: result.status }).toEqual({
        row: row.name,
        as: name,
        status: expected,
      });
      expect(typeof result.json?.error).toBe('string');
      expect(h.snapshot()).toEqual(before);
    }
    for (const name of row.allowed) {
      const result = await h.api(row.method, row.path, { as: tokens[name], body: row.body });
      if (result.status < 300) allowed.push(name);
      else expect({ row: row.name, as: name, status: result.status, body: result.text }).toBeNull();
    }
    expect({ row: row.name, allowed: allowed.sort() }).toEqual({ row: row.name, allowed: [...row.allowed].sort() });
  }
}
