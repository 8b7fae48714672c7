import type { Database } from 'bun:sqlite';
import type { Db } from './client';
import { engineOf, recordEngine } from './dialect';

/**
 * One SQLite connection is shared by every request, so a transaction and the statements around it need rules:
 * - transactions take turns through a per-database queue (drizzle's bun-sqlite driver commits an `async`
 *   callback at its first `await`, drizzle-team/drizzle-orm#2275, so its own `transaction` cannot be used);
 * - a transaction's statements run on a second drizzle handle (`tx`) over the same connection;
 * - a plain statement on `db` issued while a transaction is open waits until it has ended, so it never lands
 *   inside someone else's BEGIN … ROLLBACK (guardSqlite below).
 */
type SqliteGate = {
  tx: Db;
  sqlite: Database;
  /** The queue of transactions: each waits for the one before. */
  queue: Promise<void>;
  /** While a transaction is open: settles when it has committed or rolled back. */
  open: Promise<void> | undefined;
};

const gates = new WeakMap<Db, SqliteGate>();
/** The per-transaction handles (SQLite's `tx`, PostgreSQL's drizzle transactions): work inside needs no new turn. */
const insideTransaction = new WeakSet<object>();

/** Whether `db` is a transaction's handle (what `transaction` hands its work), not the database itself. */
export const isTransaction = (db: Db) => insideTransaction.has(db);

type PreparedMethods = Record<'run' | 'all' | 'get' | 'values', (...args: unknown[]) => unknown>;

/**
 * Called by `openDatabase` for SQLite: every statement prepared through `db` (one-off or prepared once) checks,
 * when it runs, whether a transaction is open on the connection; if one is, it runs once that has ended.
 * When none is (the usual case) the statement runs at once, synchronously, as before.
 */
export function guardSqlite(db: Db, tx: Db, sqlite: Database) {
  const gate: SqliteGate = { tx, sqlite, queue: Promise.resolve(), open: undefined };
  gates.set(db, gate);
  insideTransaction.add(tx);
  const session = (db as unknown as { session: { prepareQuery: (...args: unknown[]) => PreparedMethods } }).session;
  const prepareQuery = session.prepareQuery.bind(session);
  session.prepareQuery = (...args: unknown[]) => {
    const prepared = prepareQuery(...args);
    for (const method of ['run', 'all', 'get', 'values'] as const) {
      const original = prepared[method].bind(prepared);
      const guarded = (...params: unknown[]): unknown => {
        if (!gate.open) return original(...params);
        // Check again when woken: the next queued transaction may have begun in between.
        return gate.open.then(() => guarded(...params));
      };
      prepared[method] = guarded;
    }
    return prepared;
  };
}

/**
 * Runs `work` as one transaction that really holds across awaits, and answers what it answers.
 * `work` must use the `tx` it is given for every statement (a statement on the outer `db` would wait for this very
 * transaction to end). On PostgreSQL each transaction gets its own pooled connection (drizzle's `db.transaction`).
 * On SQLite transactions take turns and start IMMEDIATE (they read then write); inside one, await only database
 * work (no network or file I/O): the connection is everybody's until it ends.
 */
export async function transaction<T>(db: Db, work: (tx: Db) => Promise<T> | T): Promise<T> {
  if (insideTransaction.has(db)) return work(db);
  const gate = gates.get(db);
  if (!gate) {
    if (engineOf(db) !== 'postgres') throw new Error('transaction(): not a database opened by openDatabase');
    return db.transaction(async (pgTx) => {
      const tx = pgTx as unknown as Db;
      recordEngine(tx, 'postgres');
      insideTransaction.add(tx);
      return work(tx);
    }) as Promise<T>;
  }
  const previous = gate.queue;
  let release!: () => void;
  const turn = new Promise<void>((resolve) => {
    release = resolve;
  });
  const next = previous.then(() => turn);
  gate.queue = next;
  await previous;
  gate.open = turn;
  try {
    gate.sqlite.exec('BEGIN IMMEDIATE');
    try {
      const result = await work(gate.tx);
      gate.sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      gate.sqlite.exec('ROLLBACK');
      throw error;
    }
  } finally {
    gate.open = undefined;
    release();
  }
}
