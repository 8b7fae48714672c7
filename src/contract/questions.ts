import { z } from 'zod';
import { LIMITS } from './limits';
import { plainText, withoutControl } from './text';
import { isoTime } from './users';

/**
 * Questions inside a lecture (issue 33, docs/teaching.md). The teacher sets them at moments of the video; the player
 * pauses there and asks. The server scores every answer: a question's right answers reach a student's browser only
 * once that student has answered it for the last time. Pure zod and constants only (the web bundle imports it).
 *
 * Routes:
 * - `GET /api/lectures/{id}/questions`: the lecture's questions as the asker may see them (`questionsJson`).
 * - `POST /api/lectures/{id}/questions` (its teacher): adds one (`questionInput`), answers `teacherQuestionJson`.
 * - `PATCH /api/lectures/{id}/questions/{questionId}` (its teacher): `questionUpdateBody`; answers kept.
 * - `DELETE /api/lectures/{id}/questions/{questionId}` (its teacher): the question and its answers.
 * - `POST /api/questions/{id}/answers` (a student of the class): `answerBody`, answers `answerResultJson`.
 * - `GET /api/lectures/{id}/questions/results` (its teacher): `questionResultsJson`.
 * - `PATCH /api/questions/{id}/answers/{userId}` (its teacher): marks a short answer, `markBody`.
 * - `noSkip` on `PATCH /api/lectures/{id}/update` and on the lecture's JSON.
 */

export const QUESTION_KINDS = ['choice', 'truefalse', 'short'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

const prompt = plainText({
  required: 'fields.questionPromptRequired',
  tooShort: 'fields.questionPromptRequired',
  tooLong: 'fields.questionPromptTooLong',
  min: 1,
  max: LIMITS.questionPromptMax,
  hidden: 'fields.questionPromptHidden',
  multiline: true,
});

const choiceText = plainText({
  required: 'fields.questionChoiceRequired',
  tooShort: 'fields.questionChoiceRequired',
  tooLong: 'fields.questionChoiceTooLong',
  min: 1,
  max: LIMITS.questionChoiceMax,
  hidden: 'fields.questionChoiceHidden',
});

/** The moment of the video it is asked at, in seconds (the lecture's duration is checked by the server). */
const at = z
  .number({ error: 'fields.questionAtRequired' })
  .finite('fields.questionAtRequired')
  .min(0, 'fields.questionAtNegative')
  .max(LIMITS.coverageSecondsMax, 'fields.questionAtPastEnd');

/** Whether the student is told right or wrong after answering (and may try again, up to `questionTriesMax`). */
const feedback = z.boolean().default(true);

const choiceIndex = z
  .number()
  .int()
  .min(0)
  .max(LIMITS.questionChoicesMax - 1);

/** What a teacher writes: one question. */
export const questionInput = z
  .discriminatedUnion(
    'kind',
    [
      z.strictObject({
        kind: z.literal('choice'),
        at,
        prompt,
        choices: z
          .array(choiceText)
          .min(LIMITS.questionChoicesMin, 'fields.questionChoicesTooFew')
          .max(LIMITS.questionChoicesMax, 'fields.questionChoicesTooMany'),
        /** The right choices' indexes: one, or several (the student then picks every right one). */
        correct: z
          .array(choiceIndex)
          .min(1, 'fields.questionCorrectRequired')
          .max(LIMITS.questionChoicesMax)
          .refine((list) => new Set(list).size === list.length, 'fields.questionCorrectRequired'),
        feedback,
      }),
      z.strictObject({ kind: z.literal('truefalse'), at, prompt, correct: z.boolean(), feedback }),
      z.strictObject({
        kind: z.literal('short'),
        at,
        prompt,
        /** Marked by the teacher (right or wrong, counted in the score), or left unmarked (never counted). */
        marked: z.boolean().default(false),
        feedback,
      }),
    ],
    { error: 'fields.questionKind' },
  )
  .refine(
    (question) => question.kind !== 'choice' || question.correct.every((index) => index < question.choices.length),
    { message: 'fields.questionCorrectRequired', path: ['correct'] },
  );
export type QuestionInput = z.infer<typeof questionInput>;

/**
 * A question edited after students answered keeps their answers. With `rescore`, the answers are scored again by the
 * new right answers; without, they keep their scores and read as answered to an earlier version (`changed`).
 */
export const questionUpdateBody = z.strictObject({ question: questionInput, rescore: z.boolean().default(false) });
export type QuestionUpdateBody = z.infer<typeof questionUpdateBody>;

/** The right answer of a choice question (indexes), a true/false one (a boolean); a short answer has none. */
export const answerKey = z.union([z.array(choiceIndex), z.boolean()]).nullable();

const shortAnswer = withoutControl(
  z.string().trim().min(1, 'fields.answerRequired').max(LIMITS.shortAnswerMax, 'fields.answerTooLong'),
  'fields.answerHidden',
  true,
);

/** A student's answer: the picked choices' indexes, true or false, or the short answer's text. */
export const answerValue = z.union([
  z.array(choiceIndex).min(1, 'fields.answerRequired').max(LIMITS.questionChoicesMax),
  z.boolean(),
  shortAnswer,
]);
export type AnswerValue = z.infer<typeof answerValue>;

/** `POST /api/questions/{id}/answers`. `offline`: answered while offline and sent once the network came back. */
export const answerBody = z.strictObject({ answer: answerValue, offline: z.boolean().optional() });
export type AnswerBody = z.infer<typeof answerBody>;

/** A student's own answer to a question. */
export const myAnswerJson = z.object({
  answer: answerValue,
  /** Right or wrong; null when the student is not told (no feedback), or a short answer unmarked or not marked yet. */
  correct: z.boolean().nullable(),
  tries: z.number().int().min(1),
  /** Tries left after a wrong answer with feedback (0: the answer is final). */
  triesLeft: z.number().int().min(0),
  /** The right answer: only with feedback, and only once the answer is final. */
  rightAnswer: answerKey,
  /** The teacher changed the question after this answer (and did not re-score it). */
  changed: z.boolean(),
  answeredAt: isoTime,
});
export type MyAnswerJson = z.infer<typeof myAnswerJson>;

/** The answer to `POST /api/questions/{id}/answers`: the student's answer as now kept. */
export const answerResultJson = myAnswerJson;
export type AnswerResultJson = MyAnswerJson;

/** A question as a student sees it: never its right answers before their final answer. */
export const questionJson = z.object({
  _id: z.string(),
  kind: z.enum(QUESTION_KINDS),
  at: z.number(),
  prompt: z.string(),
  /** A choice question's choices ([] for true/false and short answers). */
  choices: z.array(z.string()),
  /** A choice question with several right answers (check boxes, not radio buttons). */
  multiple: z.boolean(),
  feedback: z.boolean(),
  /** A short answer the teacher marks. */
  marked: z.boolean(),
  /** The asker's own answer (a student's); null before one, and always null for the teacher. */
  mine: myAnswerJson.nullable(),
  /** The right answer: the teacher's view only (null for a student; their `mine.rightAnswer` says it when final). */
  key: answerKey,
  /** The times the question was edited (the teacher's view; 0 for a student). */
  version: z.number().int(),
});
export type QuestionJson = z.infer<typeof questionJson>;

/** `GET /api/lectures/{id}/questions`: by time. `noSkip` is the lecture's "no skipping ahead". */
export const questionsJson = z.object({ questions: z.array(questionJson), noSkip: z.boolean() });
export type QuestionsJson = z.infer<typeof questionsJson>;

/** `PATCH /api/questions/{id}/answers/{userId}`: the teacher marks a short answer right or wrong. */
export const markBody = z.strictObject({ correct: z.boolean() });

/** `GET /api/lectures/{id}/questions/results` (the teacher): per question, the share right and each student's answer. */
export const questionResultsJson = z.object({
  questions: z.array(
    z.object({
      questionId: z.string(),
      /** Students who answered. */
      answered: z.number().int(),
      /** Of those scored (marked, or choice and true/false), how many are right. */
      right: z.number().int(),
      scored: z.number().int(),
      /** The most common wrong answers, most first (at most 3): a choice question's picks, true/false's value. */
      commonWrong: z.array(z.object({ answer: answerValue, count: z.number().int() })),
      /** Short answers waiting for the teacher's mark. */
      toMark: z.number().int(),
      answers: z.array(
        z.object({
          userId: z.string(),
          username: z.string(),
          answer: answerValue,
          correct: z.boolean().nullable(),
          tries: z.number().int(),
          /** Answered to an earlier version of the question, not re-scored. */
          changed: z.boolean(),
          answeredAt: isoTime,
        }),
      ),
    }),
  ),
});
export type QuestionResultsJson = z.infer<typeof questionResultsJson>;

/**
 * A student's question score in a lecture: right answers over the lecture's scored questions (choice, true/false and
 * marked short answers), as a whole percent; null when the lecture has none. On the teacher's table's cells.
 */
export const questionScore = z
  .object({ right: z.number().int(), total: z.number().int(), percent: z.number().int().min(0).max(100) })
  .nullable();
export type QuestionScore = z.infer<typeof questionScore>;
