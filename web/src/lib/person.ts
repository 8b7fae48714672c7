import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { subscribeOnline } from './online';
import { sessionAtom } from './session';
import { appStore } from './store';

/*
 * What the signed-in features keep per person, apart from session.ts so the sign-in page's bundle does not carry it.
 */

/** The signed-in person's id, read outside React (undefined when no one is signed in). */
export const currentUserId = () => appStore.get(sessionAtom).user?._id;

/**
 * Runs `start` while a person is signed in, again for each new person; what it answers cleans up when they leave.
 * The signed-in shell's background work (offline copies, notes written offline) starts this way.
 */
export function usePersonEffect(start: (userId: string) => undefined | (() => void)) {
  const userId = useAtomValue(sessionAtom).user?._id;
  const latest = useRef(start);
  latest.current = start;
  useEffect(() => (userId ? latest.current(userId) : undefined), [userId]);
}

/** A JSON record this browser keeps for the person under `key`: empty without a key, or when it cannot be read. */
export function readPersonalRecord<T>(key: string | undefined): Record<string, T> {
  if (!key) return {};
  try {
    return JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, T>;
  } catch {
    return {};
  }
}

/** How often what waits on this device to be sent is tried again. */
const OUTBOX_RETRY_MS = 10_000;

/**
 * Runs in the signed-in shell for one kind of thing kept on this device while offline (coverage, answers): sends
 * it once at start, every 10 s while it waits, and each time the connection is back.
 */
export function useSendWhenOnline(hasQueued: () => boolean, send: () => Promise<unknown>) {
  usePersonEffect(() => {
    const sync = () => {
      if (navigator.onLine && hasQueued()) void send();
    };
    sync();
    const retry = setInterval(sync, OUTBOX_RETRY_MS);
    const unsubscribe = subscribeOnline(sync);
    return () => {
      clearInterval(retry);
      unsubscribe();
    };
  });
}
