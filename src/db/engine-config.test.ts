import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config';

const dir = mkdtempSync(join(tmpdir(), 'classroom-engine-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const secret = 'a-secret-of-at-least-thirty-two-characters';

test('no DATABASE_URL: SQLite in DATA_DIR, as on one box', () => {
  const config = loadConfig({ DATA_DIR: dir });
  expect(config.databaseUrl).toBeUndefined();
  expect(config.databaseFile).toBe(join(dir, 'classroom.sqlite'));
});

test('DATABASE_URL selects PostgreSQL and needs JWT_SECRET, said in one line', () => {
  const url = 'postgres://classroom:pw@db.internal:5432/classroom';
  expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: url, JWT_SECRET: secret }).databaseUrl).toBe(url);
  let error: unknown;
  try {
    loadConfig({ DATA_DIR: dir, DATABASE_URL: url });
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toContain('JWT_SECRET');
  expect((error as Error).message).not.toContain('\n');
});

test('a DATABASE_URL that is not postgres:// is refused; BACKUP_DIR with PostgreSQL is refused', () => {
  expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'mysql://x', JWT_SECRET: secret })).toThrow('DATABASE_URL');
  expect(() =>
    loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://h/db', JWT_SECRET: secret, BACKUP_DIR: join(dir, 'b') }),
  ).toThrow('pg_dump');
});
