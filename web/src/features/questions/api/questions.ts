import { ApiError, answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import type {
  AnswerValue,
  MyAnswerJson,
  QuestionInput,
  QuestionJson,
  QuestionResultsJson,
  QuestionsJson,
} from '@contract/questions';
import { currentUserId, readPersonalRecord } from '@lib/person';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type {
  AnswerValue,
  MyAnswerJson,
  QuestionInput,
  QuestionJson,
  QuestionKind,
  QuestionResultsJson,
  QuestionsJson,
} from '@contract/questions';

/** A lecture's questions (issue 33): a student's without their right answers, the teacher's with them. */
export function useQuestions(lectureId: string | undefined) {
  return useQuery({
    queryKey: lectureKeys.questions(lectureId ?? ''),
    queryFn: (): Promise<QuestionsJson> =>
      answer(api.lectures[':id'].questions.$get({ param: { id: lectureId ?? '' } })),
    enabled: !!lectureId,
  });
}

/** The teacher's view of the answers: per question the share right, the common wrong answers, each student's. */
export function useQuestionResults(lectureId: string) {
  return useQuery({
    queryKey: lectureKeys.questionResults(lectureId),
    queryFn: (): Promise<QuestionResultsJson> =>
      answer(api.lectures[':id'].questions.results.$get({ param: { id: lectureId } })),
  });
}

/** Adds a question (`questionId` null) or changes one, with the re-score choice; the list loads again after. */
export function useSaveQuestion(lectureId: string, questionId: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ question, rescore }: { question: QuestionInput; rescore: boolean }): Promise<QuestionJson> =>
      questionId
        ? answer(
            api.lectures[':id'].questions[':questionId'].$patch({
              param: { id: lectureId, questionId },
              json: { question, rescore },
            }),
          )
        : answer(api.lectures[':id'].questions.$post({ param: { id: lectureId }, json: question })),
    // The form shows the refusal beside its fields.
    meta: { quiet: true },
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.questions(lectureId) }),
  });
}

/** Deletes a question and its answers (the teacher). */
export function useDeleteQuestion(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (questionId: string) =>
      answer(api.lectures[':id'].questions[':questionId'].$delete({ param: { id: lectureId, questionId } })),
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.questions(lectureId) }),
  });
}

/** The teacher marks a short answer right or wrong. */
export function useMarkAnswer(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mark: { questionId: string; userId: string; correct: boolean }) =>
      answer(
        api.questions[':id'].answers[':userId'].$patch({
          param: { id: mark.questionId, userId: mark.userId },
          json: { correct: mark.correct },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: lectureKeys.questionResults(lectureId) }),
  });
}

/** "No skipping ahead" on a lecture (the teacher), through the lecture's update route. */
export function useSetNoSkip(lecture: { _id: string; courseId: string }) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (noSkip: boolean) =>
      answer(api.lectures[':id'].update.$patch({ param: { id: lecture._id }, json: { noSkip } })),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: lectureKeys.ofCourse(lecture.courseId) }),
        client.invalidateQueries({ queryKey: lectureKeys.questions(lecture._id) }),
      ]),
  });
}

/**
 * Answers given offline (a saved lecture played without a network): kept on this device under a `classroom.` key
 * per person (sign-out forgets it with everything else), sent when the connection is back.
 */
type QueuedAnswer = { lectureId: string; answer: AnswerValue; at: number };
const queueKey = (userId: string) => `classroom.answers.${userId}`;

function queueAnswer(questionId: string, queued: QueuedAnswer) {
  const userId = currentUserId();
  if (!userId) return;
  try {
    const queue = readPersonalRecord<QueuedAnswer>(queueKey(userId));
    queue[questionId] = queued;
    localStorage.setItem(queueKey(userId), JSON.stringify(queue));
  } catch {
    // Storage full or blocked: the answer is lost on this device, the lecture plays on.
  }
}

/** The answers waiting on this device for one lecture, by question. */
export function queuedAnswers(lectureId: string): Record<string, QueuedAnswer> {
  const userId = currentUserId();
  const queue = readPersonalRecord<QueuedAnswer>(userId ? queueKey(userId) : undefined);
  return Object.fromEntries(Object.entries(queue).filter(([, queued]) => queued.lectureId === lectureId));
}

export const hasQueuedAnswers = () => {
  const userId = currentUserId();
  return !!userId && Object.keys(readPersonalRecord(queueKey(userId))).length > 0;
};

/** What answering gives the overlay: the server's scored answer, or `queued` when it waits for the network. */
export type AnswerOutcome = { kind: 'scored'; mine: MyAnswerJson } | { kind: 'queued' };

/** Sends a student's answer; offline (or the server out of reach) it waits on this device and says so. */
export function useAnswerQuestion(lectureId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ questionId, value }: { questionId: string; value: AnswerValue }): Promise<AnswerOutcome> => {
      const queue = () => {
        queueAnswer(questionId, { lectureId, answer: value, at: Date.now() });
        return { kind: 'queued' } as const;
      };
      if (!navigator.onLine) return queue();
      try {
        const mine = await answer(
          api.questions[':id'].answers.$post({ param: { id: questionId }, json: { answer: value } }),
        );
        return { kind: 'scored', mine };
      } catch (error) {
        if (error instanceof ApiError && error.status === 0) return queue();
        throw error;
      }
    },
    // The overlay says what went wrong, beside the answer. Offline it runs too (not paused): it keeps the answer.
    meta: { quiet: true },
    networkMode: 'always',
    onSuccess: (outcome, { questionId }) => {
      if (outcome.kind !== 'scored') return;
      client.setQueryData<QuestionsJson>(lectureKeys.questions(lectureId), (list) =>
        list
          ? {
              ...list,
              questions: list.questions.map((question) =>
                question._id === questionId ? { ...question, mine: outcome.mine } : question,
              ),
            }
          : list,
      );
    },
  });
}

let flushing: Promise<void> | undefined;

/** Sends every answer given offline (`offline: true`); each leaves the queue once the server has answered it. */
export function flushAnswers(): Promise<void> {
  flushing ??= (async () => {
    const userId = currentUserId();
    if (!userId) return;
    for (const [questionId, queued] of Object.entries(readPersonalRecord<QueuedAnswer>(queueKey(userId)))) {
      try {
        await answer(
          api.questions[':id'].answers.$post({
            param: { id: questionId },
            json: { answer: queued.answer, offline: true },
          }),
        );
      } catch (error) {
        // Still offline, or the server is down: later. Refused (answered already, gone from the class): dropped.
        if (!(error instanceof ApiError) || error.status === 0 || error.status >= 500) return;
      }
      const queue = readPersonalRecord<QueuedAnswer>(queueKey(userId));
      delete queue[questionId];
      try {
        localStorage.setItem(queueKey(userId), JSON.stringify(queue));
      } catch {}
    }
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}
