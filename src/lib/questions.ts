import { LIMITS } from '../contract/limits';
import type { AnswerValue, QuestionInput, QuestionKind } from '../contract/questions';

/**
 * Scoring of questions inside a lecture (docs/teaching.md, "Questions inside the video"): pure functions, so the
 * answer route, a re-score after an edit and the tests share one rule.
 */

/** The right answer: a choice question's right indexes (sorted), a true/false one's value; null for a short answer. */
export type AnswerKey = number[] | boolean | null;

/** What scoring needs of a question. */
export type Scorable = { kind: QuestionKind; choices: readonly string[]; key: AnswerKey; marked: boolean };

const sorted = (list: readonly number[]) => [...list].sort((a, b) => a - b);

/** A question's parts as kept, from what the teacher wrote (a choice question's key sorted, so two keys compare). */
export function questionParts(input: QuestionInput) {
  return {
    kind: input.kind,
    at: input.at,
    prompt: input.prompt,
    choices: input.kind === 'choice' ? input.choices : [],
    key: (input.kind === 'choice'
      ? sorted(input.correct)
      : input.kind === 'truefalse'
        ? input.correct
        : null) as AnswerKey,
    marked: input.kind === 'short' ? input.marked : false,
    feedback: input.feedback,
  };
}

/**
 * The answer as kept when it fits the question (a choice question's picks: existing, each once, sorted), else
 * undefined: a list for a choice question, a boolean for true/false, text for a short answer.
 */
export function fittedAnswer(
  question: Pick<Scorable, 'kind' | 'choices'>,
  value: AnswerValue,
): AnswerValue | undefined {
  if (question.kind === 'choice') {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    if (new Set(value).size !== value.length || value.some((index) => index >= question.choices.length))
      return undefined;
    return sorted(value);
  }
  if (question.kind === 'truefalse') return typeof value === 'boolean' ? value : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Right or wrong by the question's key: a choice answer is right when its picks are exactly the right choices.
 * Null for a short answer (its teacher marks it) and for an answer that does not fit the question.
 */
export function scoreAnswer(question: Scorable, value: AnswerValue): boolean | null {
  const fitted = fittedAnswer(question, value);
  if (fitted === undefined || question.kind === 'short') return null;
  if (question.kind === 'truefalse') return fitted === question.key;
  const key = Array.isArray(question.key) ? question.key : [];
  const picks = fitted as number[];
  return picks.length === key.length && picks.every((index, at) => index === key[at]);
}

/** Whether the question counts in the score: choice and true/false always, a short answer when the teacher marks it. */
export const isScored = (question: Pick<Scorable, 'kind' | 'marked'>) => question.kind !== 'short' || question.marked;

/**
 * Tries left after this answer: only a wrong answer to a choice or true/false question with feedback may be given
 * again, up to `LIMITS.questionTriesMax` in all. 0 means the answer is final.
 */
export function triesLeft(
  question: { kind: QuestionKind; feedback: boolean },
  answer: { correct: boolean | null; tries: number },
) {
  if (!question.feedback || question.kind === 'short' || answer.correct !== false) return 0;
  return Math.max(0, LIMITS.questionTriesMax - answer.tries);
}

/** Whether two questions' right answers differ (what makes answers given before read as `changed`). */
export function rightAnswersDiffer(a: Scorable, b: Scorable) {
  return (
    a.kind !== b.kind ||
    JSON.stringify(a.choices) !== JSON.stringify(b.choices) ||
    JSON.stringify(a.key) !== JSON.stringify(b.key)
  );
}
