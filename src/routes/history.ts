import { Hono } from 'hono';
import { requireUser } from '../auth/middleware';
import { toHistoryJson } from '../contract/engagement';
import { historyOf } from '../db/queries/engagement';
import type { AppDeps, AppEnv } from '../deps';

/** Not in the spec: what the user watched, newest first, with how far they got. */
export function historyRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', requireUser(deps), async (c) =>
    c.json((await historyOf(deps.db, c.get('user').id)).map(toHistoryJson)),
  );
}
