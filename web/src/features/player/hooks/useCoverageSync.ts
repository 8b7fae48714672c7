import { subscribeOnline } from '@lib/online';
import { usePersonEffect } from '@lib/person';
import { flushCoverage, hasQueuedCoverage } from '../state/coverage-reports';

/** How often coverage played offline is tried again while it waits. */
const COVERAGE_RETRY_MS = 10_000;

/**
 * Runs in the signed-in shell: sends what was played offline on this device (saved lectures, issue 33) once at
 * start and each time the connection is back.
 */
export function useCoverageSync() {
  usePersonEffect(() => {
    const sync = () => {
      if (navigator.onLine && hasQueuedCoverage()) void flushCoverage();
    };
    sync();
    const retry = setInterval(sync, COVERAGE_RETRY_MS);
    const unsubscribe = subscribeOnline(sync);
    return () => {
      clearInterval(retry);
      unsubscribe();
    };
  });
}
