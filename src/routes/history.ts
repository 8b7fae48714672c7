import { Hono } from 'hono';
import { z } from 'zod';
import { requireUser } from '../auth/middleware';
import { historyEntryJson, toHistoryJson } from '../contract/engagement';
import { historyOf } from '../db/queries/engagement';
import type { AppDeps, AppEnv } from '../deps';
import { answers } from '../http/openapi';

/** Not in the spec: what the user watched, newest first, with how far they got. */
export function historyRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/', answers({ 200: z.array(historyEntryJson) }), requireUser(deps), async (c) =>
    c.json((await historyOf(deps.db, c.get('user').id)).map(toHistoryJson)),
  );
}
