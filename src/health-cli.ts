import { readFileSync } from 'node:fs';
import { ROLES, type Role } from './bootstrap';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { describeFailing, readinessChecks } from './routes/health';
import { createStorage } from './storage/create-storage';

/** The role of the container's main process (PID 1), read from its command line; `all` when none is named. */
function containerRole(): Role {
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    return (args.find((arg) => (ROLES as readonly string[]).includes(arg)) as Role | undefined) ?? 'all';
  } catch {
    return 'all';
  }
}

/**
 * `classroom healthcheck [role]`, the container's HEALTHCHECK (the image has no curl). An HTTP role asks its own
 * `/api/health/ready` on $PORT; a worker (which serves no HTTP) runs the worker's checks itself: database, schema,
 * storage, ffmpeg, and a heartbeat of a worker on this host. Answers the exit code (0 ready, 1 not).
 */
export async function runHealthcheck(roleArgument: string | undefined, env: Record<string, string | undefined>) {
  const role = (roleArgument ?? containerRole()) as Role;
  if (!ROLES.includes(role) || role === 'migrate') {
    console.error(`healthcheck: no readiness for ${JSON.stringify(roleArgument)} (serve, worker or all).`);
    return 1;
  }
  if (role !== 'worker') {
    const port = env.PORT || '3000';
    const answer = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => undefined);
    if (answer?.status !== 200) console.error(answer ? await answer.text() : 'The server does not answer.');
    return answer?.status === 200 ? 0 : 1;
  }
  const config = loadConfig(env);
  const database = openDatabase(config);
  try {
    const results = await readinessChecks('worker', { config, db: database.db, storage: createStorage(config) })();
    if (results.every((check) => check.ok)) return 0;
    console.error(describeFailing(results));
    return 1;
  } finally {
    await database.close();
  }
}
