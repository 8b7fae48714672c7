import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Role } from '../bootstrap';
import { engineOf } from '../db/dialect';
import { readMigrations } from '../db/migrate';
import { type Harness, startHarness, TEST_PASSWORD } from '../test/harness';
import { healthRoutes } from './health';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('health', () => {
  test('live answers; ready checks the database, schema, storage, data folder, ffmpeg and the worker', async () => {
    expect((await h.api('GET', '/api/health/live')).json).toMatchObject({ ok: true, version: expect.any(String) });
    expect((await h.api('GET', '/api/health')).json).toEqual({ ok: true });
    const ready = await h.api('GET', '/api/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.json.checks.map((check: { name: string; ok: boolean }) => [check.name, check.ok])).toEqual([
      ['database', true],
      ['schema', true],
      ['storage', true],
      ['data_folder', true],
      ['ffmpeg', true],
      ['worker', true],
    ]);
  });

  test('each role checks its own work: serve no ffmpeg and no worker; a pending migration fails every role', async () => {
    const deps = { config: h.config, db: h.db, storage: h.storage };
    const ready = async (role: Role, migrationTags?: string[]) => {
      const routes = healthRoutes({ ...deps, role, migrationTags });
      const answer = await routes.request('/ready');
      return { status: answer.status, json: (await answer.json()) as any };
    };
    const names = (json: { checks: { name: string }[] }) => json.checks.map((check) => check.name);
    const serve = await ready('serve');
    expect(serve.status).toBe(200);
    expect(names(serve.json)).toEqual(['database', 'schema', 'storage', 'data_folder']);
    // A serve with a broken ffmpeg is still ready: it never runs it.
    const noFfmpeg = { ...h.config, ffmpegPath: '/nonexistent/ffmpeg' };
    const serveRoutes = healthRoutes({ ...deps, config: noFfmpeg, role: 'serve' });
    expect((await serveRoutes.request('/ready')).status).toBe(200);
    const worker = await ready('worker');
    expect(names(worker.json)).toEqual(['database', 'schema', 'storage', 'ffmpeg', 'worker']);
    expect(worker.status).toBe(200);

    // A migration this build has that the database has not applied: not ready, whatever the role.
    const newer = [...readMigrations(engineOf(h.db)).map((migration) => migration.tag), '9999_from_a_newer_build'];
    for (const role of ['serve', 'worker', 'all'] as const) {
      const answer = await ready(role, newer);
      expect(answer.status).toBe(503);
      expect(answer.json.error).toContain('schema (1 migration(s) pending: run `classroom migrate`)');
    }
    expect((await ready('serve')).status).toBe(200);
  });

  test('without ffmpeg, or with the disk nearly full, or with no worker, ready answers 503 naming the check', async () => {
    const broken = await startHarness(
      { FFMPEG_PATH: '/nonexistent/ffmpeg', MIN_FREE_DISK_BYTES: String(1024 ** 5) },
      { worker: false },
    );
    try {
      const ready = await broken.api('GET', '/api/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.json.code).toBe('not_ready');
      expect(ready.json.error).toContain('ffmpeg (');
      expect(ready.json.error).toContain('data_folder (only');
      expect(ready.json.error).toContain('worker (no job worker has reported yet)');
      expect(ready.json.error).not.toContain('database');
      expect((await broken.api('GET', '/api/health/live')).status).toBe(200);
      // A worker's own checks (what `classroom healthcheck worker` runs): no worker of this host, no ffmpeg.
      const worker = await healthRoutes({
        config: broken.config,
        db: broken.db,
        storage: broken.storage,
        role: 'worker',
      }).request('/ready');
      expect(worker.status).toBe(503);
      const workerError = ((await worker.json()) as { error: string }).error;
      expect(workerError).toContain('ffmpeg (');
      expect(workerError).toContain('worker (no job worker of this host');
      expect(workerError).not.toContain('data_folder');
    } finally {
      await broken.close();
    }
  });
});

describe('logs', () => {
  test('one JSON line per request with its request id (also in X-Request-Id), status, duration and user', async () => {
    const me = await h.signUp('student', 'Lou Logger');
    const answer = await h.api('GET', '/api/courses', { as: me.token });
    const id = answer.headers.get('x-request-id');
    expect(id).toBeString();
    const line = h.logLines.find((entry) => entry.reqId === id && entry.msg === 'request');
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/courses',
      status: 200,
      userId: me.user._id,
    });
    expect(line?.durationMs).toBeNumber();
    expect(line?.time).toBeString();
  });

  test('a failed login is logged with the address and the request id, never the password', async () => {
    const me = await h.signUp('student', 'Fay Failed');
    const secret = 'my wrong but secret guess';
    const answer = await h.api('POST', '/api/users/login', { body: { email: me.email, password: secret } });
    expect(answer.status).toBe(401);
    const id = answer.headers.get('x-request-id');
    const failed = h.logLines.find((entry) => entry.reqId === id && entry.event === 'login_failed');
    expect(failed).toMatchObject({ level: 'warn', email: me.email });
    const everything = JSON.stringify(h.logLines);
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain(TEST_PASSWORD);
    expect(everything).not.toContain(me.token);
  });
});
