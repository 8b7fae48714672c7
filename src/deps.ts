import type { Role } from './bootstrap';
import type { Config } from './config';
import type { Db } from './db/client';
import type { User } from './db/schema';
import type { SchoolLocales } from './i18n/translate';
import type { JobsClient } from './jobs/client';
import type { Logger, RequestLog } from './lib/log';
import type { Mailer } from './mail/mailer';
import type { Storage } from './storage/storage';

/** Everything the HTTP app needs, passed in by main.ts (real parts) or the test harness (temp parts). */
export type AppDeps = {
  config: Config;
  db: Db;
  mailer: Mailer;
  storage: Storage;
  jobs: JobsClient;
  log: Logger;
  /** What this process does (`classroom serve`, `all`…): what its readiness checks. Unset: `all`. */
  role?: Role;
};

/** Hono environment of authenticated routes. */
/** Hono environment: the request's own logger (with its request id) on every route, the user on authenticated ones. */
export type AppEnv = {
  Variables: { user: User; sessionId: string; log: RequestLog; requestId: string; school: SchoolLocales };
};
