import { eq } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config';
import { LIMITS } from '../contract/limits';
import { openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { users } from '../db/schema';
import { transaction } from '../db/transaction';
import { newId } from '../lib/ids';
import { hashPassword } from './password';
import { endSessions } from './sessions';

/**
 * `classroom set-admin-password` (from source: `bun src/main.ts set-admin-password`): the break-glass way in when
 * school sign-in is the only one (PASSWORD_SIGNIN=false) or the provider is down. Sets the password of the
 * ADMIN_EMAIL account (made, as an approved teacher and administrator, if it does not exist yet) and ends its
 * sessions. The password is read from standard input (typed at a prompt, or piped: `printf '%s\n' "$PW" | …`),
 * never from the command line, where other users of the machine could read it. That account, and only it, may
 * then log in with its password even with PASSWORD_SIGNIN=false.
 */
export async function runSetAdminPassword(env: Record<string, string | undefined>): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    return 1;
  }
  const email = config.adminEmail;
  if (!email) {
    console.error("Set ADMIN_EMAIL to the administrator's address first: this command sets that account's password.");
    return 2;
  }
  const password = await readPassword(`New password for ${email} (${LIMITS.passwordMin}+ characters): `);
  if (password.length < LIMITS.passwordMin || password.length > LIMITS.passwordMax) {
    console.error(`The password must be ${LIMITS.passwordMin} to ${LIMITS.passwordMax} characters. Nothing changed.`);
    return 2;
  }
  const passwordHash = await hashPassword(password);
  const database = openDatabase(config);
  try {
    await migrateDatabase(database);
    const made = await setAdminPassword(database.db, email, passwordHash);
    console.log(
      made
        ? `Made the administrator account ${email} with this password. Sign in with it at ${config.publicUrl ?? 'the server'}.`
        : `Set the password of ${email}; its other sessions were ended. It can sign in with it even with PASSWORD_SIGNIN=false.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

/** Sets the hash on the account of `email` (an administrator from now on), or makes it; true when it was made. */
export async function setAdminPassword(db: Parameters<typeof endSessions>[0], email: string, passwordHash: string) {
  const made = await transaction(db, async (tx) => {
    const [updated] = await tx
      .update(users)
      .set({ passwordHash, isAdmin: true })
      .where(eq(users.email, email))
      .returning({ id: users.id });
    if (updated) return { id: updated.id, made: false };
    const id = newId();
    await tx.insert(users).values({
      id,
      username: 'Administrator',
      email,
      passwordHash,
      role: 'teacher',
      isAdmin: true,
      teacherStatus: 'approved',
      emailVerifiedAt: Date.now(),
    });
    return { id, made: true };
  });
  if (!made.made) await endSessions(db, made.id);
  return made.made;
}

/** One line from standard input; at a terminal, asked for without echoing what is typed. */
async function readPassword(question: string): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const text = await new Response(Bun.stdin.stream()).text();
    return text.split(/\r?\n/)[0] ?? '';
  }
  process.stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve) => {
    let typed = '';
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') process.exit(130);
        if (char === '\u007f') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
