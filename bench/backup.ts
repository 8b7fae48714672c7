/**
 * `bun run bench:backup`: snapshots of a data folder with 300 MB of media (300 one-megabyte segments in 30
 * videos). Prints the first snapshot's time against a plain copy of the same files (baseline, same run), and what
 * a second snapshot of the unchanged media adds on disk (target: under 1% of the media).
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { takeSnapshot } from '../src/backup/snapshots';
import { openDatabase } from '../src/db/client';
import { migrate } from '../src/db/migrate';

const work = mkdtempSync(join(tmpdir(), 'classroom-bench-backup-'));
const dataDir = join(work, 'data');
const VIDEOS = 30;
const SEGMENTS = 10;
const SEGMENT_BYTES = 1024 ** 2;
try {
  mkdirSync(dataDir, { recursive: true });
  const { sqlite, db } = openDatabase(join(dataDir, 'classroom.sqlite'));
  migrate(sqlite);
  for (let v = 0; v < VIDEOS; v++) {
    const dir = join(dataDir, 'videos', `video${v}`, '0');
    mkdirSync(dir, { recursive: true });
    for (let s = 0; s < SEGMENTS; s++)
      writeFileSync(join(dir, `seg_${String(s).padStart(5, '0')}.m4s`), randomBytes(SEGMENT_BYTES));
  }
  const mediaBytes = VIDEOS * SEGMENTS * SEGMENT_BYTES;
  const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

  let started = performance.now();
  cpSync(join(dataDir, 'videos'), join(work, 'plain-copy'), { recursive: true });
  const baselineMs = performance.now() - started;

  const backupDir = join(work, 'backups');
  started = performance.now();
  const first = await takeSnapshot({ db, dataDir, backupDir, keep: 7, now: new Date(Date.now() - 60_000) });
  const firstMs = performance.now() - started;
  started = performance.now();
  const second = await takeSnapshot({ db, dataDir, backupDir, keep: 7 });
  const secondMs = performance.now() - started;
  sqlite.close();

  console.log(`media: ${mb(mediaBytes)} in ${VIDEOS * SEGMENTS} files`);
  console.log(`plain copy (baseline):  ${baselineMs.toFixed(0)} ms`);
  console.log(
    `first snapshot:         ${firstMs.toFixed(0)} ms (ratio ${(firstMs / baselineMs).toFixed(2)}), added ${mb(first.bytesAdded)}`,
  );
  console.log(
    `second snapshot:        ${secondMs.toFixed(0)} ms, added ${mb(second.bytesAdded)} on disk (media ${mb(second.mediaBytesAdded)}, database ${mb(second.databaseBytes)}), linked ${mb(second.bytesLinked)}`,
  );
  console.log(
    `second snapshot adds ${((second.bytesAdded / mediaBytes) * 100).toFixed(3)}% of the media size (target < 1%)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
