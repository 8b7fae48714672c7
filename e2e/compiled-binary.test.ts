import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signupCookie } from '../src/test/harness';
import { startMailCapture } from '../src/test/mail-capture';
import { type RunningServer, root, startServer } from './server';

let server: RunningServer;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
const emptyDir = mkdtempSync(join(tmpdir(), 'classroom-binary-'));

beforeAll(async () => {
  const compile = Bun.spawnSync(['bun', 'run', join(root, 'scripts', 'compile.ts')], { cwd: root, stderr: 'pipe' });
  if (compile.exitCode !== 0) throw new Error(compile.stderr.toString());
  mail = await startMailCapture();
  // Runs from an empty folder with no DATA_DIR: everything it needs is inside the binary.
  server = await startServer({
    command: [join(root, 'dist', 'classroom')],
    cwd: emptyDir,
    dataDir: join(emptyDir, 'data'),
    env: { SMTP_URL: mail.url, DATA_DIR: '' },
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await mail?.close();
  rmSync(emptyDir, { recursive: true, force: true });
});

test('the compiled binary serves the app from an empty folder and signs a user up', async () => {
  const page = await fetch(`${server.baseUrl}/signup`);
  expect(page.status).toBe(200);
  const html = await page.text();
  const script = /src="(\/assets\/main-[^"]+\.js)"/.exec(html)?.[1];
  expect(script).toBeString();
  const asset = await fetch(`${server.baseUrl}${script}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('cache-control')).toContain('immutable');

  const email = 'binary.user@example.test';
  const body = { username: 'Binary User', email, password: 'password1234', role: 'teacher' };
  const registered = await fetch(`${server.baseUrl}/api/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(registered.status).toBe(201);
  const otp = await mail.codeFor(email);
  const verified = await fetch(`${server.baseUrl}/api/users/verify-otp`, {
    method: 'POST',
    // As the registering browser: with its `signup` cookie.
    headers: { 'content-type': 'application/json', cookie: signupCookie(registered.headers) ?? '' },
    body: JSON.stringify({ email, otp }),
  });
  const { token } = (await verified.json()) as { token: string };
  const me = await fetch(`${server.baseUrl}/api/users`, { headers: { authorization: `Bearer ${token}` } });
  expect(((await me.json()) as { username: string }).username).toBe('Binary User');
  expect(await Bun.file(join(emptyDir, 'data', 'classroom.sqlite')).exists()).toBe(true);
});

test('the compiled binary takes a backup beside the running server and restores it', async () => {
  const run = (args: string[]) =>
    Bun.spawnSync([join(root, 'dist', 'classroom'), ...args], {
      cwd: emptyDir,
      env: { ...process.env, DATA_DIR: join(emptyDir, 'data') },
      stdout: 'pipe',
      stderr: 'pipe',
    });
  expect(run(['--version']).stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  expect(run(['--help']).stdout.toString()).toContain('classroom backup <folder>');
  const backup = run(['backup', join(emptyDir, 'backups')]);
  expect({ code: backup.exitCode, err: backup.stderr.toString() }).toEqual({ code: 0, err: '' });
  expect(backup.stdout.toString()).toContain('Snapshot');
  const [snapshot] = readdirSync(join(emptyDir, 'backups'));
  const restore = run(['restore', join(emptyDir, 'backups', snapshot), join(emptyDir, 'restored')]);
  expect(restore.exitCode).toBe(0);
  expect(await Bun.file(join(emptyDir, 'restored', 'classroom.sqlite')).exists()).toBe(true);
  // A second restore into the now full folder is refused, and changes nothing.
  const again = run(['restore', join(emptyDir, 'backups', snapshot), join(emptyDir, 'restored')]);
  expect(again.exitCode).toBe(1);
  expect(again.stderr.toString().trim()).toEndWith('then point DATA_DIR at it.');
});
