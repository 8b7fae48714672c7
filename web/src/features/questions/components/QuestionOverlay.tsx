import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { direction, t } from '@lib/i18n';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type AnswerOutcome, type AnswerValue, type QuestionJson, useAnswerQuestion } from '../api/questions';

/** The name of each kind of question, as the teacher reads it. */
export const KIND_LABELS = {
  choice: 'questions.kind.choice',
  truefalse: 'questions.kind.truefalse',
  short: 'questions.kind.short',
} as const;

/** How a right answer reads to the student: a choice question's picks, true or false. */
export function answerText(question: Pick<QuestionJson, 'choices'>, value: AnswerValue | null): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return t(value ? 'questions.true' : 'questions.false');
  if (typeof value === 'string') return value;
  return value.map((index) => question.choices[index] ?? '').join(' · ');
}

/**
 * One question over the paused video (the player's cue): the student answers, the server scores it, and the student
 * reads what the teacher chose to tell (right or wrong, tries left, the right answer once final). Offline, the
 * answer waits on this device. Continue plays on.
 */
export function QuestionOverlay({
  question,
  lectureId,
  onDone,
}: {
  question: QuestionJson;
  lectureId: string;
  /** The student is done with this question: the video plays on. */
  onDone: () => void;
}) {
  const [choices, setChoices] = useState<number[]>([]);
  const [truth, setTruth] = useState<boolean | null>(null);
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<AnswerOutcome | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useAnswerQuestion(lectureId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);
  const id = useId();

  // The question takes the focus from the player, so a keyboard or a screen reader starts on it.
  useEffect(() => headingRef.current?.focus({ preventScroll: true }), []);
  useEffect(() => {
    if (outcome) resultRef.current?.focus({ preventScroll: true });
  }, [outcome]);

  const value: AnswerValue | null =
    question.kind === 'choice' ? (choices.length ? choices : null) : question.kind === 'truefalse' ? truth : text;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (value === null || (typeof value === 'string' && !value.trim())) {
      setProblem(t('fields.answerRequired'));
      return;
    }
    if (typeof value === 'string' && value.trim().length > LIMITS.shortAnswerMax) {
      setProblem(t('fields.answerTooLong'));
      return;
    }
    setProblem(null);
    send.mutate(
      { questionId: question._id, value: typeof value === 'string' ? value.trim() : value },
      {
        onSuccess: setOutcome,
        onError: (error) => setProblem(error instanceof ApiError ? error.message : t('questions.sendFailed')),
      },
    );
  }

  function tryAgain() {
    setOutcome(null);
    setChoices([]);
    setTruth(null);
    setText('');
  }

  const mine = outcome?.kind === 'scored' ? outcome.mine : null;
  const kind = question.kind === 'choice' ? (question.multiple ? 'checkbox' : 'radio') : 'radio';

  return (
    <div dir={direction} className="flex min-h-full flex-col justify-center gap-3 p-3 text-sm sm:p-6 sm:text-base">
      <h3
        ref={headingRef}
        tabIndex={-1}
        className="text-xs font-semibold tracking-wide text-indigo-200 uppercase focus:outline-none"
      >
        {t('questions.heading')}
      </h3>
      {outcome === null ? (
        <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          {question.kind === 'short' ? (
            <div className="flex flex-col gap-1">
              <label htmlFor={`${id}-text`} className="font-medium break-words whitespace-pre-line" translate="no">
                {question.prompt}
              </label>
              <textarea
                id={`${id}-text`}
                className="input min-h-16 text-slate-900"
                value={text}
                maxLength={LIMITS.shortAnswerMax}
                onChange={(event) => setText(event.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
              />
            </div>
          ) : (
            <fieldset className="flex flex-col gap-1.5" aria-describedby={problem ? `${id}-problem` : undefined}>
              <legend className="mb-1.5 font-medium break-words whitespace-pre-line" translate="no">
                {question.prompt}
              </legend>
              {question.kind === 'choice' && question.multiple && (
                <p className="text-xs text-slate-300">{t('questions.pickEvery')}</p>
              )}
              {question.kind === 'choice'
                ? question.choices.map((choice, index) => (
                    <label
                      // biome-ignore lint/suspicious/noArrayIndexKey: the choices are fixed while the question shows
                      key={index}
                      className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg bg-white/10 px-3 py-1.5 hover:bg-white/20"
                    >
                      <input
                        type={kind}
                        name={`${id}-choice`}
                        className="size-4 shrink-0"
                        checked={choices.includes(index)}
                        onChange={(event) =>
                          setChoices((before) =>
                            kind === 'radio'
                              ? [index]
                              : event.target.checked
                                ? [...before, index].sort((a, b) => a - b)
                                : before.filter((item) => item !== index),
                          )
                        }
                      />
                      <span className="break-words" translate="no">
                        {choice}
                      </span>
                    </label>
                  ))
                : [true, false].map((option) => (
                    <label
                      key={String(option)}
                      className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg bg-white/10 px-3 py-1.5 hover:bg-white/20"
                    >
                      <input
                        type="radio"
                        name={`${id}-truth`}
                        className="size-4 shrink-0"
                        checked={truth === option}
                        onChange={() => setTruth(option)}
                      />
                      {t(option ? 'questions.true' : 'questions.false')}
                    </label>
                  ))}
            </fieldset>
          )}
          {problem && (
            <p id={`${id}-problem`} role="alert" className="text-sm text-red-300">
              {problem}
            </p>
          )}
          <div>
            <button type="submit" className="btn btn-primary" disabled={send.isPending}>
              {t(send.isPending ? 'questions.sending' : 'questions.answer')}
            </button>
          </div>
        </form>
      ) : (
        <div ref={resultRef} tabIndex={-1} className="flex flex-col gap-3 focus:outline-none" role="status">
          <p className="font-medium break-words whitespace-pre-line" translate="no">
            {question.prompt}
          </p>
          <p className="text-base font-semibold" data-testid="question-result">
            {outcome.kind === 'queued'
              ? t('questions.savedOffline')
              : mine?.correct === true
                ? t('questions.right')
                : mine?.correct === false
                  ? t(mine.triesLeft > 0 ? 'questions.wrongTryAgain' : 'questions.wrong', { count: mine.triesLeft })
                  : question.kind === 'short' && question.marked && question.feedback
                    ? t('questions.savedToMark')
                    : t('questions.saved')}
          </p>
          {mine?.rightAnswer !== null && mine?.rightAnswer !== undefined && mine.correct === false && (
            <p>
              {t('questions.rightAnswerWas')}{' '}
              <strong className="break-words" translate="no">
                {answerText(question, mine.rightAnswer)}
              </strong>
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {mine?.correct === false && mine.triesLeft > 0 && (
              <button type="button" className="btn btn-secondary" onClick={tryAgain}>
                {t('questions.tryAgain')}
              </button>
            )}
            <button type="button" className="btn btn-primary" onClick={onDone}>
              {t('questions.continue')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
