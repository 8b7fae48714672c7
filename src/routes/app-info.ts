import { existsSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { Hono } from 'hono';
import { requireUser } from '../auth/middleware';
import { type AppInfoJson, appInfoJson } from '../contract/app';
import type { AppDeps, AppEnv } from '../deps';
import { answers } from '../http/openapi';
import { VERSION } from '../lib/version';

const PRIVATE_V4 = /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/;

/** This machine's first private IPv4 address, unless we run in a container (its address means nothing outside). */
export function lanAddress(): string | null {
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return null;
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.family === 'IPv4' && !entry.internal && PRIVATE_V4.test(entry.address)) return entry.address;
    }
  }
  return null;
}

export function appInfoRoutes(deps: AppDeps) {
  // Only a server listening on every interface can be reached at its LAN address.
  const lan = ['0.0.0.0', '::'].includes(deps.config.host) ? lanAddress() : null;
  return new Hono<AppEnv>().get('/', answers({ 200: appInfoJson }), requireUser(deps), (c) => {
    const url = new URL(c.req.url);
    const port = url.port ? `:${url.port}` : '';
    const answer: AppInfoJson = {
      version: VERSION,
      publicUrl: deps.config.publicUrl?.replace(/\/+$/, '') ?? null,
      lanUrl: lan ? `${url.protocol}//${lan}${port}` : null,
      timeZone: deps.config.timeZone,
      maxRecordingMinutes: deps.config.maxRecordingMinutes,
      maxUploadBytes: deps.config.maxUploadBytes,
    };
    return c.json(answer);
  });
}
