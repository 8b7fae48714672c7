import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { users } from '../db/schema';
import { openScratchDatabase, testEngine } from '../test/database';
import { POSTGRES_BACKUP_REFUSAL, takeSnapshot } from './snapshots';

const dir = mkdtempSync(join(tmpdir(), 'classroom-backup-engines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('classroom backup with DATABASE_URL refuses in one clear message and writes nothing', async () => {
  const backupDir = join(dir, 'cli-backups');
  const child = Bun.spawn(['bun', join(import.meta.dir, 'cli.ts'), 'backup', backupDir], {
    env: {
      ...process.env,
      DATA_DIR: join(dir, 'data'),
      // Never reached: the command refuses before it opens anything.
      DATABASE_URL: 'postgres://classroom@127.0.0.1:1/classroom',
      JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters',
    },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  expect(code).toBe(2);
  expect(stderr.trim()).toBe(POSTGRES_BACKUP_REFUSAL);
  expect(stderr).toContain('pg_dump');
  expect(existsSync(backupDir)).toBe(false);
});

test(`a snapshot of the database (${testEngine}): SQLite's file is copied, PostgreSQL is refused`, async () => {
  const database = await openScratchDatabase();
  try {
    await database.db
      .insert(users)
      .values({ id: 'u1', username: 'Ada', email: 'ada@example.test', passwordHash: 'x', role: 'teacher' });
    const dataDir = join(dir, `data-${testEngine}`);
    const backupDir = join(dir, `backups-${testEngine}`);
    const snapshot = takeSnapshot({ db: database.db, dataDir, backupDir, keep: 2 });
    if (testEngine === 'postgres') {
      await expect(snapshot).rejects.toThrow(POSTGRES_BACKUP_REFUSAL);
      expect(existsSync(backupDir) ? readdirSync(backupDir) : []).toEqual([]);
    } else {
      const manifest = await snapshot;
      expect(readdirSync(join(backupDir, manifest.name))).toContain('classroom.sqlite');
    }
  } finally {
    await database.close();
  }
});
