import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../deps';
import { toolJwks } from '../lti/keys';

/** LTI 1.3 as a tool (docs/lti.md): our key set, login initiation, launch, deep linking. */
export function ltiRoutes(deps: Pick<AppDeps, 'db' | 'config' | 'log'>) {
  const { db } = deps;
  return new Hono<AppEnv>().get('/jwks', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    // Platforms fetch it from their own servers: readable from anywhere.
    c.header('Access-Control-Allow-Origin', '*');
    return c.json(await toolJwks(db));
  });
}
