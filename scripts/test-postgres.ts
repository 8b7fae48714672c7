/**
 * A throwaway PostgreSQL cluster for the server suite's PostgreSQL run: initdb in a temp folder (as the `postgres`
 * user when run as root: initdb refuses root), started on a free loopback port, stopped and deleted by `stop`.
 * Installs Debian's `postgresql` (scripts/system-deps.sh --test) when no initdb is found.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((version) => existsSync(join(base, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(base, versions[0], 'bin') : undefined;
}

function runChecked(command: string[], asPostgres: boolean) {
  const argv = asPostgres ? ['su', 'postgres', '-s', '/bin/sh', '-c', command.map(quote).join(' ')] : command;
  const result = Bun.spawnSync(argv, { stdout: 'pipe', stderr: 'pipe' });
  if (result.exitCode !== 0) {
    throw new Error(`${command[0]} failed: ${result.stderr.toString()}${result.stdout.toString()}`);
  }
}
const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

async function freePort(): Promise<number> {
  const server = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } });
  const { port } = server;
  server.stop(true);
  return port;
}

export type TestCluster = { url: string; stop(): void };

export async function startTestCluster(): Promise<TestCluster> {
  let bin = findBin();
  if (!bin) {
    runChecked(['bash', join(import.meta.dir, 'system-deps.sh'), '--test'], false);
    bin = findBin();
    if (!bin) throw new Error('PostgreSQL is not installed and could not be installed (apt-get install postgresql).');
  }
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'classroom-pg-'));
  if (asPostgres) {
    const uid = Number(Bun.spawnSync(['id', '-u', 'postgres']).stdout.toString().trim());
    const gid = Number(Bun.spawnSync(['id', '-g', 'postgres']).stdout.toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  runChecked(
    [join(bin, 'initdb'), '-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C'],
    asPostgres,
  );
  // Throwaway data: no fsync; enough connections for the suite's pools (each harness opens its own).
  const options = `-k ${dir} -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  runChecked([join(bin, 'pg_ctl'), '-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start'], asPostgres);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runChecked([join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'], asPostgres);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
