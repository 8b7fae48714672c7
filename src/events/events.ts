import type { Db } from '../db/client';
import { isTransaction } from '../db/transaction';
import type { AppEvent, AppEventType, EventOf } from './types';

export type { AppEvent, AppEventType, EventOf } from './types';

/**
 * Events (docs/architecture.md, "What follows a write"). A writer calls `emit(tx, event)` inside its own
 * transaction; every listener runs then, in order, with that same `tx`. So a consequence commits or rolls back with
 * the write: it is never lost, and never seen for a write that did not happen. A consequence that takes long (a
 * mail, a slide index) is a job row a listener enqueues, run by the jobs module after the commit.
 */
export type Listener<T extends AppEventType> = (tx: Db, event: EventOf<T>) => Promise<unknown> | unknown;

/** Stored loosely: `on` pairs each listener with its own type, and `emit` hands it only events of that type. */
type AnyListener = (tx: Db, event: AppEvent) => unknown;
const listeners = new Map<AppEventType, AnyListener[]>();

/** Subscribes `listener` to events of `type`; answers a function that unsubscribes it (tests). */
export function on<T extends AppEventType>(type: T, listener: Listener<T>): () => void {
  const list = listeners.get(type) ?? [];
  list.push(listener as unknown as AnyListener);
  listeners.set(type, list);
  return () => {
    const index = list.indexOf(listener as unknown as AnyListener);
    if (index >= 0) list.splice(index, 1);
  };
}

/** Runs the listeners of `event` in the writer's transaction `tx` (a listener's failure rolls the write back). */
export async function emit(tx: Db, event: AppEvent): Promise<void> {
  // Outside a transaction a listener's writes could outlive a failed write, or be lost after a good one.
  if (!isTransaction(tx)) throw new Error(`emit(${event.type}): call it inside the writer's transaction`);
  for (const listener of listeners.get(event.type) ?? []) await listener(tx, event);
}
