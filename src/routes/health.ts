import { Hono } from 'hono';
import type { AppDeps } from '../deps';

export function healthRoutes(deps: AppDeps) {
  return new Hono().get('/', (c) => {
    deps.sqlite.query('SELECT 1').get();
    return c.json({ ok: true });
  });
}
