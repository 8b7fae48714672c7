/**
 * `bun run backup -- <dir>` takes a snapshot of DATA_DIR into <dir> (safe while the server runs);
 * `bun run restore -- <snapshot> [<data dir>]` restores one into an empty data folder (default DATA_DIR).
 * The compiled binary answers the same as `classroom backup <dir>` and `classroom restore <snapshot> [<dir>]`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { moveData } from './move-data';
import { POSTGRES_BACKUP_REFUSAL, restoreSnapshot, takeSnapshot } from './snapshots';

const megabytes = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

export async function runBackupCommand(args: string[]): Promise<number> {
  const [command, first, second] = args;
  if (command === 'backup') {
    const config = loadConfig(process.env);
    const backupDir = resolve(first ?? config.backupDir ?? '');
    if (!first && !config.backupDir) {
      console.error('Usage: backup <folder> (or set BACKUP_DIR)');
      return 2;
    }
    if (config.databaseUrl) {
      console.error(POSTGRES_BACKUP_REFUSAL);
      return 2;
    }
    const database = openDatabase(config);
    await migrateDatabase(database);
    const manifest = await takeSnapshot({
      db: database.db,
      dataDir: config.dataDir,
      backupDir,
      keep: config.backupKeep,
    });
    await database.close();
    console.log(
      `Snapshot ${manifest.name} in ${backupDir}: ${manifest.mediaFiles} media files; added ${megabytes(manifest.bytesAdded)} on disk, shared ${megabytes(manifest.bytesLinked)} with the previous snapshot.`,
    );
    return 0;
  }
  if (command === 'restore') {
    if (!first) {
      console.error('Usage: restore <snapshot folder> [<empty data folder>]');
      return 2;
    }
    const dataDir = resolve(second ?? process.env.DATA_DIR ?? './data');
    restoreSnapshot(resolve(first), dataDir);
    console.log(`Restored ${first} into ${dataDir}. Start the server with DATA_DIR=${dataDir}.`);
    return 0;
  }
  console.error('Usage: backup <folder> | restore <snapshot> [<data folder>]');
  return 2;
}

/**
 * `classroom migrate-data`: DATA_DIR's one-box school into DATABASE_URL (empty) and STORAGE_URL. Exit 0 when every
 * table and file was copied and checked; 1 with the reason otherwise (the one-box data is never changed).
 */
export async function runMoveData(env: Record<string, string | undefined>): Promise<number> {
  try {
    const config = loadConfig(env);
    const started = Date.now();
    const report = await moveData(config, (line) => console.log(line));
    const rows = Object.values(report.tables).reduce((sum, count) => sum + count, 0);
    console.log(
      `Moved ${rows} rows and ${report.files} media files (${megabytes(report.bytes)}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    const secretFile = join(config.dataDir, 'jwt-secret');
    if (
      existsSync(secretFile) &&
      readFileSync(secretFile, 'utf8').trim() !== new TextDecoder().decode(config.jwtSecret)
    ) {
      console.log(
        `Everyone signs in again unless every process gets JWT_SECRET set to the one-box secret (the contents of ${secretFile}).`,
      );
    }
    return 0;
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : `migrate-data stopped: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.main) {
  try {
    process.exit(await runBackupCommand(process.argv.slice(2)));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
