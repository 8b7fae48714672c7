import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppDeps } from '../deps';

export function healthRoutes(deps: AppDeps) {
  return new Hono().get('/', async (c) => {
    await deps.db.get(sql`select 1`);
    return c.json({ ok: true });
  });
}
