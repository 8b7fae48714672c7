import { useSendWhenOnline } from '@lib/person';
import { useQueryClient } from '@tanstack/react-query';
import { flushAnswers, hasQueuedAnswers } from '../api/questions';

/**
 * Runs in the signed-in shell: sends the answers given offline on this device (a saved lecture, issue 33) once at
 * start and each time the connection is back; the lectures' questions load again with their scores.
 */
export function useAnswerSync() {
  const client = useQueryClient();
  useSendWhenOnline(hasQueuedAnswers, () =>
    flushAnswers().then(() =>
      client.invalidateQueries({
        predicate: (query) => query.queryKey[0] === 'lectures' && query.queryKey[2] === 'questions',
      }),
    ),
  );
}
