/**
 * The job worker alone, in its own process, against the same DATA_DIR and database as the server
 * (run the server with JOBS_IN_PROCESS=false). Any number of workers may run; leases keep them apart.
 */
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { migrateDatabase } from './db/migrate';
import { createWorker } from './jobs/worker';
import { createLogger } from './lib/log';
import { checkFfmpeg } from './media/ffmpeg';
import { createLocalStorage } from './storage/storage';

try {
  const config = loadConfig(process.env);
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const database = openDatabase(config);
  const { db } = database;
  await migrateDatabase(database);
  const ffmpegProblem = checkFfmpeg(config);
  if (ffmpegProblem) log.warn(ffmpegProblem);
  const worker = createWorker({ config, db, storage: createLocalStorage(config.dataDir), log });
  worker.start();
  log.info(`Classroom worker ${worker.owner} is running (data in ${config.dataDir})`);
  const shutdown = async () => {
    await worker.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
