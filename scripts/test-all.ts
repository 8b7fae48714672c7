/**
 * Runs every suite (lint, type check, web build, server tests on SQLite and again on PostgreSQL, end-to-end tests)
 * and ends with one line `N passed, N failed` that sums them all. Exits non-zero when anything failed.
 */
import { join } from 'node:path';
import { readStreamText } from '../src/lib/read-stream';
import { startTestCluster } from './test-postgres';

const root = join(import.meta.dir, '..');
let passed = 0;
let failed = 0;

/** Runs a command, echoing its output, and returns the output and exit code. */
async function run(
  name: string,
  command: string[],
  env: Record<string, string> = {},
): Promise<{ output: string; exitCode: number }> {
  console.log(`\n=== ${name}: ${command.join(' ')}`);
  const child = Bun.spawn(command, { cwd: root, env: { ...process.env, ...env }, stdout: 'pipe', stderr: 'pipe' });
  let output = '';
  const pump = (stream: ReadableStream<Uint8Array>, sink: NodeJS.WriteStream) =>
    readStreamText(stream, (text) => {
      output += text;
      sink.write(text);
    });
  await Promise.all([pump(child.stdout, process.stdout), pump(child.stderr, process.stderr)]);
  return { output, exitCode: await child.exited };
}

/** A check that is one test: it passes when the command exits 0. */
async function check(name: string, command: string[]) {
  const { exitCode } = await run(name, command);
  if (exitCode === 0) passed += 1;
  else {
    failed += 1;
    console.log(`--- ${name} FAILED`);
  }
}

/** A bun test suite: its own pass and fail counts; a crash, or a run with no test, is one failure. */
async function bunTests(name: string, args: string[], env: Record<string, string> = {}) {
  const { output, exitCode } = await run(name, ['bun', 'test', ...args], env);
  const pass = Number(/^\s*(\d+) pass$/m.exec(output)?.[1] ?? 0);
  const fail = Number(/^\s*(\d+) fail$/m.exec(output)?.[1] ?? 0);
  passed += pass;
  failed += fail;
  if (exitCode !== 0 && fail === 0) failed += 1;
  if (pass + fail === 0 && exitCode === 0) {
    console.log(`--- ${name} ran no test`);
    failed += 1;
  }
}

/** The server tests that touch media, avatars or uploads (storage.test.ts and media.test.ts cover both drivers anyway). */
const S3_SUITE = ['lectures', 'captions', 'users', 'admin', 'resumable-uploads', 'downloads', 'slides']
  .map((name) => `src/routes/${name}.test.ts`)
  .concat('src/media/queue.test.ts');

await check('lint', ['bun', 'x', 'biome', 'check', '.']);
await check('typecheck', ['bun', 'x', 'tsc', '--noEmit', '-p', '.']);
await check('build', ['bun', 'run', 'scripts/build-web.ts']);
// Each language's completeness, printed for every run; one under 100% fails this check (docs/translating.md).
await check('translations complete', ['bun', 'run', 'scripts/i18n-status.ts', '--strict']);
await bunTests('server tests (SQLite)', ['--timeout', '60000', 'src/']);
// The component tests: happy-dom and testing-library, with their own config (web/bunfig.toml).
await bunTests('component tests', ['--config=web/bunfig.toml', '--timeout', '20000', './web/']);
await serverTestsOnPostgres();
// The media tests again with every byte in a real S3-compatible server (s3rver, started by each harness).
await bunTests('media tests (S3 storage)', ['--timeout', '60000', ...S3_SUITE], { TEST_STORAGE: 's3' });
await bunTests('end-to-end tests', ['--timeout', '180000', 'e2e/']);

/** The whole server suite again, each harness on its own database of a throwaway cluster (scripts/test-postgres.ts). */
async function serverTestsOnPostgres() {
  const name = 'server tests (PostgreSQL)';
  let cluster: Awaited<ReturnType<typeof startTestCluster>> | undefined;
  try {
    cluster = await startTestCluster();
    await bunTests(name, ['--timeout', '60000', 'src/'], { TEST_DATABASE_URL: cluster.url });
  } catch (error) {
    console.log(`--- ${name} could not run: ${(error as Error).message}`);
    failed += 1;
  } finally {
    cluster?.stop();
  }
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
