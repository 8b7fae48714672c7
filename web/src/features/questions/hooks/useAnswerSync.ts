import { subscribeOnline } from '@lib/online';
import { usePersonEffect } from '@lib/person';
import { useQueryClient } from '@tanstack/react-query';
import { flushAnswers, hasQueuedAnswers } from '../api/questions';

/** How often answers given offline are tried again while they wait. */
const ANSWERS_RETRY_MS = 10_000;

/**
 * Runs in the signed-in shell: sends the answers given offline on this device (a saved lecture, issue 33) once at
 * start and each time the connection is back; the lectures' questions load again with their scores.
 */
export function useAnswerSync() {
  const client = useQueryClient();
  usePersonEffect(() => {
    const sync = () => {
      if (!navigator.onLine || !hasQueuedAnswers()) return;
      void flushAnswers().then(() =>
        client.invalidateQueries({
          predicate: (query) => query.queryKey[0] === 'lectures' && query.queryKey[2] === 'questions',
        }),
      );
    };
    sync();
    const retry = setInterval(sync, ANSWERS_RETRY_MS);
    const unsubscribe = subscribeOnline(sync);
    return () => {
      clearInterval(retry);
      unsubscribe();
    };
  });
}
