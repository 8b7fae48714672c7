import { useSendWhenOnline } from '@lib/person';
import { flushCoverage, hasQueuedCoverage } from '../state/coverage-reports';

/**
 * Runs in the signed-in shell: sends what was played offline on this device (saved lectures, issue 33) once at
 * start and each time the connection is back.
 */
export function useCoverageSync() {
  useSendWhenOnline(hasQueuedCoverage, flushCoverage);
}
