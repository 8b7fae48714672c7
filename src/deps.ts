import type { Database } from 'bun:sqlite';
import type { Config } from './config';
import type { Db } from './db/client';
import type { User } from './db/schema';
import type { Mailer } from './mail/mailer';
import type { MediaWorker } from './media/queue';

/** Everything the HTTP app needs, passed in by main.ts (real parts) or the test harness (temp parts). */
export type AppDeps = {
  config: Config;
  db: Db;
  sqlite: Database;
  mailer: Mailer;
  media: MediaWorker;
};

/** Hono environment of authenticated routes. */
export type AppEnv = { Variables: { user: User } };
