/**
 * Preloaded into the server by bench:stall (`bun --preload bench/stall-probe.ts src/main.ts`). Writes `[probe] {json}`
 * lines to stderr: `stall` per event-loop stall (a 5 ms timer late by more than STALL_PROBE_MS, 50 by default), with
 * the process's CPU time and heap change over it; `watch` per stall seen from a thread beside the loop (what the
 * loop's thread was doing: stall-watch.ts); `sql` per bun:sqlite statement slower than STALL_PROBE_SQL_MS (20), with
 * its SQL; `held` per transaction that kept the connection longer than that, and `transactions` every 5 s.
 */
import { heapSize } from 'bun:jsc';
import { Database, type Statement } from 'bun:sqlite';

const stallMs = Number(process.env.STALL_PROBE_MS ?? 50);
const slowSqlMs = Number(process.env.STALL_PROBE_SQL_MS ?? 20);
const emit = (event: Record<string, unknown>) =>
  process.stderr.write(`[probe] ${JSON.stringify({ at: Date.now(), ...event })}\n`);

// cpu: this process's CPU time over the late tick (near `ms`: the loop was busy; far below: it was descheduled or
// blocked). heap: the heap's change over it (a large drop: a garbage collection ran).
const beat = new Int32Array(new SharedArrayBuffer(4));
const watcher = new Worker(new URL('./stall-watch.ts', import.meta.url));
watcher.postMessage({ beat, pid: process.pid });
// Bun's Worker can be unref'd (the DOM type does not say so): the probe keeps no server alive.
(watcher as unknown as { unref(): void }).unref();
let last = performance.now();
let lastCpu = process.cpuUsage();
let lastHeap = heapSize();
setInterval(() => {
  const now = performance.now();
  const late = now - last - 5;
  if (late > stallMs) {
    const cpu = process.cpuUsage(lastCpu);
    const heap = heapSize();
    emit({
      kind: 'stall',
      ms: Math.round(late),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      heapMB: Math.round((heap - lastHeap) / 1e5) / 10,
    });
  }
  last = now;
  Atomics.store(beat, 0, Date.now() & 0x7fffffff);
  lastCpu = process.cpuUsage();
  lastHeap = heapSize();
}, 5).unref();

const timeMethod = (
  proto: Record<string, unknown>,
  name: string,
  sqlOf: (self: unknown, args: unknown[]) => string,
) => {
  const original = proto[name] as (...args: unknown[]) => unknown;
  if (typeof original !== 'function') return;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const ms = performance.now() - started;
      if (ms > slowSqlMs) emit({ kind: 'sql', ms: Math.round(ms), method: name, sql: sqlOf(this, args).slice(0, 300) });
    }
  };
};
// A statement's run/all/get/values are its own properties (not the prototype's): wrap each statement once.
const wrapped = new WeakSet<object>();
const wrapStatement = (statement: Statement) => {
  if (wrapped.has(statement)) return statement;
  wrapped.add(statement);
  for (const name of ['run', 'all', 'get', 'values']) {
    timeMethod(statement as never, name, (self) => (self as Statement).toString());
  }
  return statement;
};
for (const name of ['prepare', 'query'] as const) {
  const original = Database.prototype[name] as (...args: unknown[]) => Statement;
  (Database.prototype as unknown as Record<string, unknown>)[name] = function (this: Database, ...args: unknown[]) {
    return wrapStatement(original.apply(this, args));
  };
}
timeMethod(Database.prototype as never, 'exec', (_self, args) => String(args[0]));
// How long each transaction holds the connection (BEGIN to COMMIT or ROLLBACK, across its awaits): plain statements
// wait for it (src/db/transaction.ts). Transactions held longer than the SQL threshold are reported, all counted.
let begunAt: number | undefined;
let transactions = 0;
let heldMs = 0;
const exec = Database.prototype.exec;
Database.prototype.exec = function (this: Database, ...args: Parameters<typeof exec>) {
  const text = String(args[0]);
  if (text.startsWith('BEGIN')) begunAt = performance.now();
  const answer = exec.apply(this, args);
  if ((text === 'COMMIT' || text === 'ROLLBACK') && begunAt !== undefined) {
    const ms = performance.now() - begunAt;
    transactions++;
    heldMs += ms;
    if (ms > slowSqlMs) emit({ kind: 'held', ms: Math.round(ms) });
    begunAt = undefined;
  }
  return answer;
};
setInterval(() => {
  if (transactions) emit({ kind: 'transactions', count: transactions, heldMs: Math.round(heldMs) });
  transactions = 0;
  heldMs = 0;
}, 5000).unref();
timeMethod(Database.prototype as never, 'run', (_self, args) => String(args[0]));
