import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { engineOf } from '../db/dialect';
import { UPLOADS_PREFIX, VIDEOS_PREFIX } from '../storage/keys';

/** What a snapshot holds besides the database: the stored media and pictures, and the signing secret. */
const MEDIA_FOLDERS = [VIDEOS_PREFIX, UPLOADS_PREFIX, 'avatars'];
const SECRET_FILE = 'jwt-secret';
const DATABASE_FILE = 'classroom.sqlite';
const MANIFEST = 'manifest.json';

export type SnapshotManifest = {
  name: string;
  createdAt: string;
  /** Every media file: size and modification time, to know what the next snapshot may link instead of copy. */
  files: Record<string, { size: number; mtimeMs: number }>;
  databaseBytes: number;
  /** Bytes this snapshot really added on disk (the database, and media files it had to copy). */
  bytesAdded: number;
  /** Of those, media bytes: 0 when the media did not change since the previous snapshot. */
  mediaBytesAdded: number;
  /** Bytes it shares with the previous snapshot through hard links. */
  bytesLinked: number;
  mediaFiles: number;
};

const snapshotName = (date: Date) => date.toISOString().replace(/[:.]/g, '-');

/** The snapshots in `backupDir`, newest first (only complete ones: a snapshot is renamed into place last). */
export function listSnapshots(backupDir: string): SnapshotManifest[] {
  if (!existsSync(backupDir)) return [];
  return readdirSync(backupDir)
    .filter((name) => !name.endsWith('.partial') && existsSync(join(backupDir, name, MANIFEST)))
    .map((name) => JSON.parse(readFileSync(join(backupDir, name, MANIFEST), 'utf8')) as SnapshotManifest)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

function walk(root: string, folder: string, visit: (relativePath: string, path: string) => void) {
  const dir = join(root, folder);
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join('/');
    if (entry.isDirectory()) walk(root, rel, visit);
    else if (entry.isFile() && !entry.name.endsWith('.part')) visit(rel, path);
  }
}

/** What `classroom backup` answers with PostgreSQL: it snapshots only SQLite and the local disk, never half of it. */
export const POSTGRES_BACKUP_REFUSAL =
  'classroom backup snapshots the SQLite database and DATA_DIR only. With DATABASE_URL (PostgreSQL) back up with pg_dump and your media store: see docs/operations.md, "Backups with PostgreSQL".';

/**
 * Takes a consistent snapshot while the server runs and writes: the database through SQLite's `VACUUM INTO`
 * (one transaction's view), then the media. Media files never change once written, so a file the previous
 * snapshot already holds (same size and time) is hard-linked from it instead of copied: an unchanged media folder
 * costs almost nothing. Keeps the newest `keep` snapshots.
 */
export async function takeSnapshot(options: { db: Db; dataDir: string; backupDir: string; keep: number; now?: Date }) {
  const { db, dataDir, backupDir } = options;
  if (engineOf(db) !== 'sqlite') throw new Error(POSTGRES_BACKUP_REFUSAL);
  const name = snapshotName(options.now ?? new Date());
  const target = join(backupDir, `${name}.partial`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  try {
    const databaseCopy = join(target, DATABASE_FILE);
    // SQLite only (checked above); through drizzle's guarded handle, so it waits for an open transaction to end.
    await db.run(sql.raw(`VACUUM INTO '${databaseCopy.replaceAll("'", "''")}'`));
    if (existsSync(join(dataDir, SECRET_FILE))) copyFileSync(join(dataDir, SECRET_FILE), join(target, SECRET_FILE));

    const previous = listSnapshots(backupDir)[0];
    const files: SnapshotManifest['files'] = {};
    let mediaBytesAdded = 0;
    let bytesLinked = 0;
    for (const folder of MEDIA_FOLDERS) {
      walk(dataDir, folder, (rel, path) => {
        const stats = statSync(path);
        files[rel] = { size: stats.size, mtimeMs: stats.mtimeMs };
        const destination = join(target, rel);
        mkdirSync(dirname(destination), { recursive: true });
        const before = previous?.files[rel];
        if (previous && before && before.size === stats.size && before.mtimeMs === stats.mtimeMs) {
          try {
            linkSync(join(backupDir, previous.name, rel), destination);
            bytesLinked += stats.size;
            return;
          } catch {
            // another filesystem, or the previous copy is gone: copy instead
          }
        }
        copyFileSync(path, destination);
        mediaBytesAdded += stats.size;
      });
    }
    const manifest: SnapshotManifest = {
      name,
      createdAt: (options.now ?? new Date()).toISOString(),
      files,
      databaseBytes: statSync(databaseCopy).size,
      bytesAdded: statSync(databaseCopy).size + mediaBytesAdded,
      mediaBytesAdded,
      bytesLinked,
      mediaFiles: Object.keys(files).length,
    };
    writeFileSync(join(target, MANIFEST), JSON.stringify(manifest));
    renameSync(target, join(backupDir, name));
    for (const old of listSnapshots(backupDir).slice(Math.max(1, options.keep))) {
      rmSync(join(backupDir, old.name), { recursive: true, force: true });
    }
    return manifest;
  } catch (error) {
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
}

/** Restores a snapshot into an empty (or missing) data folder: the database, the secret and the media. */
export function restoreSnapshot(snapshotDir: string, dataDir: string) {
  if (!existsSync(join(snapshotDir, MANIFEST))) throw new Error(`${snapshotDir} is not a complete snapshot.`);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty. Restore into an empty folder, then point DATA_DIR at it.`);
  }
  const temp = `${dataDir}.restoring`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  copyFileSync(join(snapshotDir, DATABASE_FILE), join(temp, DATABASE_FILE));
  if (existsSync(join(snapshotDir, SECRET_FILE))) copyFileSync(join(snapshotDir, SECRET_FILE), join(temp, SECRET_FILE));
  for (const folder of MEDIA_FOLDERS) {
    walk(snapshotDir, folder, (rel, path) => {
      mkdirSync(dirname(join(temp, rel)), { recursive: true });
      copyFileSync(path, join(temp, rel));
    });
  }
  rmSync(dataDir, { recursive: true, force: true });
  renameSync(temp, dataDir);
}
