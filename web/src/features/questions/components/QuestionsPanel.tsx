import type { LectureJson } from '@contract/lectures';
import { formatClock, formatNumber } from '@lib/format';
import { t } from '@lib/i18n';
import { playerClockAtom, seekRequestAtom } from '@lib/playback';
import { toast } from '@lib/toast';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { LoadError } from '@ui/QueryState';
import { useAtomValue, useSetAtom } from 'jotai';
import { useId, useState } from 'react';
import {
  type QuestionJson,
  type QuestionResultsJson,
  useDeleteQuestion,
  useMarkAnswer,
  useQuestionResults,
  useQuestions,
  useSetNoSkip,
} from '../api/questions';
import { QuestionForm } from './QuestionForm';
import { answerText, KIND_LABELS } from './QuestionOverlay';

type Result = QuestionResultsJson['questions'][number];

/**
 * The teacher's questions of a lecture, under the player: add one at the player's moment, change or delete one,
 * "no skipping ahead", and per question the share right, the common wrong answers and each student's answer (short
 * answers marked here).
 */
export function QuestionsPanel({ lecture }: { lecture: LectureJson }) {
  const questions = useQuestions(lecture._id);
  const results = useQuestionResults(lecture._id);
  const clock = useAtomValue(playerClockAtom);
  const seek = useSetAtom(seekRequestAtom);
  const noSkip = useSetNoSkip(lecture);
  const remove = useDeleteQuestion(lecture._id);
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState<number | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<QuestionJson | null>(null);
  const [wantNoSkip, setWantNoSkip] = useState<boolean | null>(null);
  /** Where the focus goes back to when a form or the delete dialog closes (its button), once it is drawn again. */
  const focusLater = (target: () => HTMLElement | null) => requestAnimationFrame(() => target()?.focus());
  const addButton = () => document.getElementById(`${id}-add`);
  const editButton = (questionId: string) => document.getElementById(`${id}-edit-${questionId}`);
  const heading = () => document.getElementById(`${id}-heading`);
  const id = useId();
  const list = questions.data?.questions ?? [];
  const resultOf = (questionId: string) => results.data?.questions.find((item) => item.questionId === questionId);

  return (
    <section aria-labelledby={`${id}-heading`} className="card flex flex-col gap-3 p-4" data-testid="questions-panel">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} tabIndex={-1} className="font-semibold text-slate-900 focus:outline-none">
          {t('questions.panel.heading', { count: list.length })}
        </h2>
        {adding === null && (
          <button
            type="button"
            id={`${id}-add`}
            className="btn btn-secondary px-3 py-1.5 text-sm"
            onClick={() => setAdding(clock)}
          >
            {t('questions.panel.addAt', { time: formatClock(clock) })}
          </button>
        )}
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-indigo-600"
          // The choice shows at once; a refusal puts it back (the toast says why).
          checked={wantNoSkip ?? lecture.noSkip}
          disabled={noSkip.isPending}
          onChange={(event) => {
            const on = event.target.checked;
            setWantNoSkip(on);
            noSkip.mutate(on, {
              onSuccess: () => toast.success(t(on ? 'questions.noSkip.on' : 'questions.noSkip.off')),
              onSettled: () => setWantNoSkip(null),
            });
          }}
        />
        <span>
          {t('questions.noSkip.label')}
          <span className="block text-xs text-slate-500">{t('questions.noSkip.hint')}</span>
        </span>
      </label>
      {adding !== null && (
        <QuestionForm
          lectureId={lecture._id}
          question={null}
          at={adding}
          answered={0}
          onDone={() => {
            setAdding(null);
            focusLater(addButton);
          }}
        />
      )}
      {questions.isError && !questions.data ? (
        <LoadError label={t('questions.panel.what')} query={questions} />
      ) : questions.data && list.length === 0 && adding === null ? (
        <p className="text-sm text-slate-600">{t('questions.panel.empty')}</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {list.map((question) => {
            const result = resultOf(question._id);
            return (
              <li
                key={question._id}
                className="flex flex-col gap-2 border-t border-slate-100 pt-3 first:border-0 first:pt-0"
              >
                <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
                  <button
                    type="button"
                    className="font-mono text-sm text-indigo-700 underline-offset-2 hover:underline"
                    aria-label={t('questions.panel.goTo', { time: formatClock(question.at) })}
                    onClick={() => seek({ seconds: question.at, at: Date.now() })}
                  >
                    {formatClock(question.at)}
                  </button>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                    {t(KIND_LABELS[question.kind])}
                  </span>
                  {question.version > 0 && (
                    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-900">
                      {t('questions.panel.edited')}
                    </span>
                  )}
                </div>
                <p className="text-sm break-words whitespace-pre-line text-slate-900" translate="no">
                  {question.prompt}
                </p>
                {question.kind !== 'short' && (
                  <p className="text-xs text-slate-600">
                    {t('questions.panel.key')}{' '}
                    <span className="font-medium text-slate-800" translate="no">
                      {answerText(question, question.key)}
                    </span>
                  </p>
                )}
                <p className="text-xs text-slate-600" data-testid="question-summary">
                  {summaryOf(result)}
                </p>
                <div className="flex flex-wrap gap-2">
                  {result && result.answered > 0 && (
                    <button
                      type="button"
                      className="btn btn-ghost px-2 py-1 text-sm"
                      aria-expanded={shown === question._id}
                      onClick={() => setShown((open) => (open === question._id ? null : question._id))}
                    >
                      {t(shown === question._id ? 'questions.panel.hideAnswers' : 'questions.panel.showAnswers')}
                    </button>
                  )}
                  <button
                    type="button"
                    className="btn btn-ghost px-2 py-1 text-sm"
                    id={`${id}-edit-${question._id}`}
                    onClick={() => setEditing((open) => (open === question._id ? null : question._id))}
                    aria-expanded={editing === question._id}
                  >
                    {t('questions.panel.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-ghost px-2 py-1 text-sm text-red-700"
                    onClick={() => setDeleting(question)}
                  >
                    {t('questions.panel.delete')}
                  </button>
                </div>
                {editing === question._id && (
                  <QuestionForm
                    lectureId={lecture._id}
                    question={question}
                    at={question.at}
                    answered={result?.answered ?? 0}
                    onDone={() => {
                      setEditing(null);
                      focusLater(() => editButton(question._id));
                    }}
                  />
                )}
                {shown === question._id && result && (
                  <Answers lectureId={lecture._id} question={question} result={result} />
                )}
              </li>
            );
          })}
        </ol>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('questions.delete.title')}
        confirmLabel={t('questions.delete.confirm')}
        busyLabel={t('questions.delete.busy')}
        busy={remove.isPending}
        danger
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              setDeleting(null);
              focusLater(heading);
              toast.success(t('questions.delete.done'));
            },
          })
        }
        onClose={() => setDeleting(null)}
      >
        <p>{t('questions.delete.body', { count: resultOf(deleting?._id ?? '')?.answered ?? 0 })}</p>
      </ConfirmDialog>
    </section>
  );
}

/** "12 answered · 75% right · 2 to mark", or that nobody has answered yet. */
function summaryOf(result: Result | undefined) {
  if (!result || result.answered === 0) return t('questions.panel.noAnswers');
  const parts = [t('questions.panel.answered', { count: result.answered })];
  if (result.scored > 0) {
    parts.push(t('questions.panel.right', { percent: Math.round((result.right / result.scored) * 100) }));
  }
  if (result.toMark > 0) parts.push(t('questions.panel.toMark', { count: result.toMark }));
  return parts.join(' · ');
}

/** Each student's answer to one question, the common wrong answers, and the marks of short answers. */
function Answers({ lectureId, question, result }: { lectureId: string; question: QuestionJson; result: Result }) {
  const mark = useMarkAnswer(lectureId);
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-slate-50 p-3 text-sm">
      {result.commonWrong.length > 0 && (
        <div>
          <p className="font-medium text-slate-800">{t('questions.panel.commonWrong')}</p>
          <ul className="list-inside list-disc text-slate-700">
            {result.commonWrong.map((wrong) => (
              <li key={JSON.stringify(wrong.answer)}>
                <span translate="no">{answerText(question, wrong.answer)}</span>{' '}
                <span className="text-slate-500">({formatNumber(wrong.count)})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ul className="flex flex-col divide-y divide-slate-200">
        {result.answers.map((item) => (
          <li key={item.userId} className="flex flex-wrap items-start justify-between gap-2 py-2">
            <div className="min-w-0">
              <p className="font-medium break-words text-slate-900" translate="no">
                {item.username}
              </p>
              <p className="break-words whitespace-pre-line text-slate-700" translate="no">
                {answerText(question, item.answer)}
              </p>
              <p className="text-xs text-slate-500">
                {[
                  item.correct === true
                    ? t('questions.panel.markedRight')
                    : item.correct === false
                      ? t('questions.panel.markedWrong')
                      : question.kind === 'short' && question.marked
                        ? t('questions.panel.waiting')
                        : t('questions.panel.unmarked'),
                  item.tries > 1 ? t('questions.panel.tries', { count: item.tries }) : null,
                  item.changed ? t('questions.panel.changedSince') : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </div>
            {question.kind === 'short' && question.marked && (
              // The group is the student (their name); each button reads as it shows (Right, Wrong).
              <fieldset className="m-0 flex min-w-0 gap-1 border-0 p-0">
                <legend className="sr-only" translate="no">
                  {item.username}
                </legend>
                {([true, false] as const).map((correct) => (
                  <button
                    key={String(correct)}
                    type="button"
                    className="btn btn-secondary px-2 py-1 text-xs"
                    aria-pressed={item.correct === correct}
                    disabled={mark.isPending}
                    onClick={() => mark.mutate({ questionId: question._id, userId: item.userId, correct })}
                  >
                    {t(correct ? 'questions.panel.markRight' : 'questions.panel.markWrong')}
                  </button>
                ))}
              </fieldset>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
