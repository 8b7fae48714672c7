import { ApiError } from '@api/client';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { formatClock, parseTime } from '@lib/format';
import { t } from '@lib/i18n';
import { Field } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type QuestionInput, type QuestionJson, type QuestionKind, useSaveQuestion } from '../api/questions';
import { KIND_LABELS } from './QuestionOverlay';

const contract = () => loadSchemas(() => import('@contract/questions'));

type Values = {
  kind: QuestionKind;
  time: string;
  prompt: string;
  choices: string[];
  correct: number[];
  truth: boolean;
  marked: boolean;
  feedback: boolean;
};

/** The form's values as the contract's `questionInput` (the time as seconds; an unreadable time as -1). */
function asInput(values: Values): QuestionInput {
  const at = parseTime(values.time) ?? -1;
  const base = { at, prompt: values.prompt, feedback: values.feedback };
  if (values.kind === 'choice') return { ...base, kind: 'choice', choices: values.choices, correct: values.correct };
  if (values.kind === 'truefalse') return { ...base, kind: 'truefalse', correct: values.truth };
  return { ...base, kind: 'short', marked: values.marked };
}

function valuesOf(question: QuestionJson | null, at: number): Values {
  const key = question?.key;
  return {
    kind: question?.kind ?? 'choice',
    time: formatClock(question?.at ?? at),
    prompt: question?.prompt ?? '',
    choices: question?.choices.length ? question.choices : ['', ''],
    correct: Array.isArray(key) ? key : [],
    truth: typeof key === 'boolean' ? key : true,
    marked: question?.marked ?? false,
    feedback: question?.feedback ?? true,
  };
}

/**
 * Adds a question at a moment of the lecture, or changes one. A question students already answered keeps their
 * answers; the teacher chooses whether those are scored again by the new right answer.
 */
export function QuestionForm({
  lectureId,
  question,
  at,
  answered,
  onDone,
}: {
  lectureId: string;
  /** The question changed; null for a new one. */
  question: QuestionJson | null;
  /** A new question's moment (the player's). */
  at: number;
  /** How many students answered it (the re-score choice shows when some did). */
  answered: number;
  onDone: () => void;
}) {
  const [values, setValues] = useState<Values>(() => valuesOf(question, at));
  const [rescore, setRescore] = useState(false);
  const save = useSaveQuestion(lectureId, question?._id ?? null);
  // Checked by the contract's `questionInput`, as the server checks it.
  const form = useForm({
    schema: async () => (await contract()).questionInput,
    mutation: save,
    send: (input: QuestionInput) => ({ question: input, rescore }),
  });
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Opened, the form takes the focus (its first choice), so a keyboard goes on in it.
  useEffect(() => formRef.current?.querySelector<HTMLElement>('input, textarea')?.focus(), []);
  const set = (patch: Partial<Values>) => {
    const next = { ...values, ...patch };
    setValues(next);
    form.recheck(asInput(next));
  };
  const failure = save.error;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (parseTime(values.time) === null) return;
    await form.submit(asInput(values), { onSuccess: onDone });
  }

  const problem = (name: string) => form.problems[name] ?? form.problems[`question.${name}`] ?? undefined;
  const choicesProblem =
    problem('choices') ??
    problem('correct') ??
    Object.entries(form.problems).find(([key]) => /(^|\.)choices\.\d+$/.test(key))?.[1];
  const timeUnread = values.time.trim() !== '' && parseTime(values.time) === null;

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      onFocus={form.prefetch}
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3"
      noValidate
      aria-label={t(question ? 'questions.form.editLabel' : 'questions.form.addLabel')}
    >
      <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
        <legend className="mb-1 text-sm font-medium text-slate-800">{t('questions.form.kind')}</legend>
        {(['choice', 'truefalse', 'short'] as const).map((kind) => (
          <label key={kind} className="flex min-h-6 items-center gap-1.5 text-sm">
            <input
              type="radio"
              name={`${id}-kind`}
              className="size-4 accent-indigo-600"
              checked={values.kind === kind}
              onChange={() => set({ kind })}
            />
            {t(KIND_LABELS[kind])}
          </label>
        ))}
      </fieldset>
      <Field
        label={t('questions.form.time')}
        hint={t('questions.form.timeHint')}
        className="w-28"
        inputMode="numeric"
        value={values.time}
        onValue={(time) => set({ time })}
        problem={timeUnread ? t('questions.form.timeUnread') : problem('at')}
      />
      <Field label={t('questions.form.prompt')} problem={problem('prompt')}>
        {(wiring) => (
          <textarea
            {...wiring}
            dir="auto"
            className="input min-h-20"
            maxLength={LIMITS.questionPromptMax}
            value={values.prompt}
            onChange={(event) => set({ prompt: event.target.value })}
          />
        )}
      </Field>
      {values.kind === 'choice' && (
        <fieldset className="flex flex-col gap-2" aria-describedby={choicesProblem ? `${id}-choices` : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-800">{t('questions.form.choices')}</legend>
          {values.choices.map((choice, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a choice is its place in the list
            <div key={index} className="flex flex-wrap items-center gap-x-2 gap-y-1">
              <input
                className="input w-full min-w-0 sm:w-auto sm:flex-1"
                dir="auto"
                aria-label={t('questions.form.choiceLabel', { n: index + 1 })}
                maxLength={LIMITS.questionChoiceMax}
                value={choice}
                onChange={(event) =>
                  set({ choices: values.choices.map((item, at) => (at === index ? event.target.value : item)) })
                }
              />
              <label className="flex min-h-6 items-center gap-1.5 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-emerald-600"
                  checked={values.correct.includes(index)}
                  onChange={(event) =>
                    set({
                      correct: event.target.checked
                        ? [...values.correct, index].sort((a, b) => a - b)
                        : values.correct.filter((item) => item !== index),
                    })
                  }
                />
                {t('questions.form.right')}
              </label>
              {values.choices.length > LIMITS.questionChoicesMin && (
                <button
                  type="button"
                  className="btn btn-ghost px-2 py-1 text-xs"
                  aria-label={t('questions.form.removeChoice', { n: index + 1 })}
                  onClick={() =>
                    set({
                      choices: values.choices.filter((_, at) => at !== index),
                      correct: values.correct
                        .filter((item) => item !== index)
                        .map((item) => (item > index ? item - 1 : item)),
                    })
                  }
                >
                  {t('questions.form.remove')}
                </button>
              )}
            </div>
          ))}
          {values.choices.length < LIMITS.questionChoicesMax && (
            <div>
              <button
                type="button"
                className="btn btn-secondary px-3 py-1 text-sm"
                onClick={() => set({ choices: [...values.choices, ''] })}
              >
                {t('questions.form.addChoice')}
              </button>
            </div>
          )}
          {choicesProblem && (
            <p id={`${id}-choices`} className="text-sm text-red-600">
              {choicesProblem}
            </p>
          )}
        </fieldset>
      )}
      {values.kind === 'truefalse' && (
        <fieldset className="flex gap-4">
          <legend className="mb-1 text-sm font-medium text-slate-800">{t('questions.form.rightAnswer')}</legend>
          {[true, false].map((option) => (
            <label key={String(option)} className="flex min-h-6 items-center gap-1.5 text-sm">
              <input
                type="radio"
                name={`${id}-truth`}
                className="size-4 accent-indigo-600"
                checked={values.truth === option}
                onChange={() => set({ truth: option })}
              />
              {t(option ? 'questions.true' : 'questions.false')}
            </label>
          ))}
        </fieldset>
      )}
      {values.kind === 'short' && (
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-indigo-600"
            checked={values.marked}
            onChange={(event) => set({ marked: event.target.checked })}
          />
          {t('questions.form.marked')}
        </label>
      )}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          checked={values.feedback}
          onChange={(event) => set({ feedback: event.target.checked })}
        />
        {t('questions.form.feedback')}
      </label>
      {question && answered > 0 && (
        <label className="flex items-start gap-2 rounded-lg bg-amber-50 p-2 text-sm text-amber-900">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-amber-600"
            checked={rescore}
            onChange={(event) => setRescore(event.target.checked)}
          />
          {t('questions.form.rescore', { count: answered })}
        </label>
      )}
      {failure instanceof ApiError && !failure.body.fields && <FormError message={failure.message} />}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={form.busy}>
          {t(form.busy ? 'questions.form.saving' : 'questions.form.save')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
