import { rmSync } from 'node:fs';
import { createApp, maxRequestBodySize } from './app';
import { runSetAdminPassword } from './auth/admin-password';
import { ensureConfiguredAdmin } from './auth/standing';
import { runBackupCommand, runMoveData } from './backup/cli';
import { type Booted, bootstrap, ROLES, type Role, StartupError } from './bootstrap';
import { ConfigError } from './config';
import { runHealthcheck } from './health-cli';
import { createJobsClient } from './jobs/client';
import { VERSION } from './lib/version';
import { createMailer } from './mail/create-mailer';
import { checkFfmpeg } from './media/ffmpeg';
import { tempDir } from './storage/keys';
import { createWorker } from './worker-jobs';

/** `serve` and `all`: the HTTP app, and (in `all`, unless JOBS_IN_PROCESS=false) the job worker beside it. */
async function serve(booted: Booted) {
  const { role, config, log, database, db, storage } = booted;
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

  const runsJobs = role === 'all' && config.jobsInProcess;
  if (runsJobs) {
    const ffmpegProblem = checkFfmpeg(config);
    if (ffmpegProblem) log.warn(`${ffmpegProblem} Video uploads will not be processed.`);
  }
  // Half-received uploads of an earlier run: no request of this process is writing them.
  rmSync(tempDir(config.scratchDir), { recursive: true, force: true });
  if (config.storage.kind === 's3') log.info(`Media are stored in the S3 bucket ${config.storage.bucket}`);
  const worker = runsJobs ? createWorker({ config, db, storage, log }) : undefined;
  const jobs = createJobsClient(db, worker);
  const app = createApp({ config, db, mailer, storage, jobs, log, role });
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
  else
    log.info(
      'This process runs no jobs: run `classroom worker` (from source: `bun src/main.ts worker`) to process videos.',
    );

  const shutdown = async () => {
    log.info('Shutting down...');
    // Let requests in flight finish for a while (shorter than a container's stop timeout); a one-shot upload still
    // running after that is cut, and its temp file removed before the process exits. Resumable uploads keep their
    // bytes (DATA_DIR/resumable) and go on after the restart.
    await Promise.race([server.stop(), Bun.sleep(DRAIN_MS)]);
    await server.stop(true);
    await worker?.stop();
    await Bun.sleep(50); // the cut requests' streams close and release their files
    rmSync(tempDir(config.scratchDir), { recursive: true, force: true });
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

/** `worker`: jobs only, no HTTP (its health: `classroom healthcheck worker`). */
async function work(booted: Booted) {
  const { config, log, database, db, storage } = booted;
  const ffmpegProblem = checkFfmpeg(config);
  if (ffmpegProblem) log.warn(`${ffmpegProblem} Video uploads will not be processed.`);
  const worker = createWorker({ config, db, storage, log });
  worker.start();
  log.info(`Classroom worker ${worker.owner} is running (data in ${config.dataDir})`);
  const shutdown = async () => {
    log.info('Shutting down: running jobs go back to the queue...');
    await worker.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

const DRAIN_MS = 8_000;
const HELP = `Classroom ${VERSION}: a self-hosted online classroom with video lectures.

  classroom [all]                the server and the job worker in one process, migrating at start (the default)
  classroom serve                HTTP only: never runs jobs or ffmpeg; refuses to start while migrations are pending
  classroom worker               jobs only (transcoding, cleanup, backups); no HTTP; any number, on any hosts
  classroom migrate              apply the database migrations (PostgreSQL: under a lock), then exit
  classroom backup <folder>      take a snapshot of DATA_DIR (safe while the server runs)
  classroom restore <snapshot> [<empty folder>]
  classroom migrate-data         copy a one-box school (SQLite and media in DATA_DIR) into DATABASE_URL's empty
                                 PostgreSQL and STORAGE_URL's bucket, checking every table and file (docs/scale.md)
  classroom set-admin-password   set the password of the ADMIN_EMAIL account (made if missing), read from standard
                                 input: the way in when PASSWORD_SIGNIN=false or the school's provider is down
  classroom healthcheck [role]   exit 0 when this container's process is ready (the container's HEALTHCHECK):
                                 asks /api/health/ready on $PORT, or for a worker checks its database, schema,
                                 storage, ffmpeg and heartbeat itself; the role is read from the container's
                                 command when not given
  classroom --version | --help

Settings come from the environment: see the README.`;

/** Runs `role`. A settings problem or a refusal to start prints one line and exits 1. */
async function runRole(role: Role) {
  try {
    const booted = await bootstrap(role, process.env);
    if (role === 'migrate') {
      booted.log.info('The database is up to date.');
      await booted.database.close();
      process.exit(0);
    }
    if (role === 'worker') await work(booted);
    else await serve(booted);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof StartupError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

// `src/worker.ts` (the `classroom worker` of a source checkout) sets the command and imports this file.
const command = process.argv[2];
if (command === '--version') {
  console.log(VERSION);
  process.exit(0);
}
if (command === '--help' || command === '-h') {
  console.log(HELP);
  process.exit(0);
}
if (command === 'healthcheck') process.exit(await runHealthcheck(process.argv[3], process.env));
// The compiled binary's subcommands: `classroom backup <dir>`, `classroom restore <snapshot> [<dir>]`.
if (command === 'backup' || command === 'restore') {
  const code = await runBackupCommand(process.argv.slice(2)).catch((error: Error) => {
    console.error(error.message);
    return 1;
  });
  process.exit(code);
}
if (command === 'migrate-data') process.exit(await runMoveData(process.env));
if (command === 'set-admin-password') process.exit(await runSetAdminPassword(process.env));
const role = (command ?? 'all') as Role;
if (!ROLES.includes(role)) {
  console.error(`Unknown command ${JSON.stringify(command)}: see \`classroom --help\`.`);
  process.exit(1);
}
await runRole(role);
