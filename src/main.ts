import { rmSync } from 'node:fs';
import { createApp, maxRequestBodySize } from './app';
import { ensureConfiguredAdmin } from './auth/standing';
import { runBackupCommand } from './backup/cli';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { createJobsClient } from './jobs/client';
import { createWorker } from './jobs/worker';
import { createLogger } from './lib/log';
import { VERSION } from './lib/version';
import { createMailer } from './mail/create-mailer';
import { checkFfmpeg } from './media/ffmpeg';
import { tempDir } from './storage/keys';
import { createLocalStorage } from './storage/storage';

async function start() {
  const config = loadConfig(process.env);
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  log.info({ version: VERSION, dataDir: config.dataDir }, `Classroom ${VERSION} starting`);
  const database = openDatabase(config);
  const { db } = database;
  const applied = await migrateDatabase(database);
  if (applied.length) log.info({ migrations: applied }, `Applied migrations: ${applied.join(', ')}`);
  const adminId = await ensureConfiguredAdmin(db, config);
  if (config.adminEmail) {
    log.info(
      adminId
        ? `ADMIN_EMAIL: ${config.adminEmail} is the administrator.`
        : `ADMIN_EMAIL: ${config.adminEmail} becomes the administrator when it signs up.`,
    );
  }
  const mailer = createMailer(config, log);
  if (mailer.kind === 'log') log.warn('No SMTP_URL set: emails (with their codes) are printed to this log.');

  const ffmpegProblem = checkFfmpeg(config);
  if (ffmpegProblem) log.warn(`${ffmpegProblem} Video uploads will not be processed.`);
  // Half-received uploads of an earlier run: no request of this process is writing them.
  rmSync(tempDir(config.dataDir), { recursive: true, force: true });
  const storage = createLocalStorage(config.dataDir);
  const worker = config.jobsInProcess ? createWorker({ config, db, storage, log }) : undefined;
  const jobs = createJobsClient(db, worker);
  const app = createApp({ config, db, mailer, storage, jobs, log });
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    fetch: app.fetch,
    maxRequestBodySize: maxRequestBodySize(config),
    idleTimeout: 120,
  });
  log.info(
    { port: server.port },
    `Classroom is listening on http://localhost:${server.port} (data in ${config.dataDir})`,
  );
  if (worker) worker.start();
  else log.info('JOBS_IN_PROCESS=false: run `bun src/worker.ts` beside the server to process videos.');

  const shutdown = async () => {
    log.info('Shutting down...');
    // Let requests in flight finish for a while (shorter than a container's stop timeout); a one-shot upload still
    // running after that is cut, and its temp file removed before the process exits. Resumable uploads keep their
    // bytes (DATA_DIR/resumable) and go on after the restart.
    await Promise.race([server.stop(), Bun.sleep(DRAIN_MS)]);
    await server.stop(true);
    await worker?.stop();
    await Bun.sleep(50); // the cut requests' streams close and release their files
    rmSync(tempDir(config.dataDir), { recursive: true, force: true });
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

const DRAIN_MS = 8_000;
const HELP = `Classroom ${VERSION}: a self-hosted online classroom with video lectures.

  classroom                      start the server (settings from the environment: see the README)
  classroom backup <folder>      take a snapshot of DATA_DIR (safe while the server runs)
  classroom restore <snapshot> [<empty folder>]
  classroom healthcheck          exit 0 when the server on $PORT is ready (the container's HEALTHCHECK)
  classroom --version | --help`;

try {
  if (process.argv[2] === '--version') {
    console.log(VERSION);
    process.exit(0);
  }
  if (process.argv[2] === 'healthcheck') {
    // The container's HEALTHCHECK: the image has no curl, so the binary asks its own readiness endpoint.
    const port = process.env.PORT || '3000';
    const answer = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
    if (answer?.status !== 200) console.error(answer ? await answer.text() : 'The server does not answer.');
    process.exit(answer?.status === 200 ? 0 : 1);
  }
  if (process.argv[2] === '--help') {
    console.log(HELP);
    process.exit(0);
  }
  // The compiled binary's subcommands: `classroom backup <dir>`, `classroom restore <snapshot> [<dir>]`.
  const command = process.argv[2];
  if (command === 'backup' || command === 'restore') {
    const code = await runBackupCommand(process.argv.slice(2)).catch((error: Error) => {
      console.error(error.message);
      return 1;
    });
    process.exit(code);
  }
  await start();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
