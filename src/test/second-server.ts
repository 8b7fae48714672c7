import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, maxRequestBodySize } from '../app';
import { createJobsClient } from '../jobs/client';
import { createLogger } from '../lib/log';
import { createSmtpMailer } from '../mail/mailer';
import { createStorage } from '../storage/create-storage';
import type { Harness } from './harness';

/**
 * Another server process of the same install, in all but the process: the harness's database and storage settings,
 * its own storage client and its own empty scratch folder, no worker. What it answers can only come from the
 * database and storage, as on another host.
 */
export function startSecondServer(h: Harness) {
  const scratch = mkdtempSync(join(tmpdir(), 'classroom-second-scratch-'));
  const config = { ...h.config, scratchDir: scratch };
  const app = createApp({
    config,
    db: h.db,
    mailer: createSmtpMailer(h.mail.url, config.mailFrom),
    storage: createStorage(config),
    jobs: createJobsClient(h.db),
    log: createLogger({ level: 'silent', format: 'json' }),
  });
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: app.fetch,
    maxRequestBodySize: maxRequestBodySize(config),
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    scratch,
    async close() {
      await server.stop(true);
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
