import { ApiError } from '@api/client';
import { errorMessage, queryClient } from '@api/query-client';
import { courseKeys } from '@api/query-keys';
import { LIMITS } from '@contract/limits';
import { useForm } from '@lib/form';
import { loadSchemas } from '@lib/form-check';
import { formatClock, formatLongDate, formatRelative, secondsOf, TIME_IN_TEXT } from '@lib/format';
import { rich, t } from '@lib/i18n';
import { playerClockAtom, seekRequestAtom } from '@lib/playback';
import { useSession } from '@lib/session';
import { toast } from '@lib/toast';
import { Avatar } from '@ui/Avatar';
import { ConfirmDialog } from '@ui/ConfirmDialog';
import { Field } from '@ui/Field';
import { FormError } from '@ui/FormError';
import { ChevronIcon, TrashIcon } from '@ui/icons';
import { QueryState } from '@ui/QueryState';
import { useAtomValue, useSetAtom } from 'jotai';
import { type FormEvent, Fragment, useEffect, useRef, useState } from 'react';
import { type Comment, getCourse, useAddComment, useComments, useDeleteComment } from '../api/comments';

/** The comment routes' request schemas: a comment or a reply is checked by the server's own rules before sending. */
const contract = () => loadSchemas(() => import('@contract/engagement'));

/**
 * Why a comment was refused, in words: a lecture's 404 while its class still loads means the lecture went; when the
 * class is gone too, the person was taken out of it (the server answers both alike, so outsiders learn nothing).
 */
async function refusalOf(failure: unknown, courseId: string | undefined) {
  if (!(failure instanceof ApiError && failure.status === 404 && courseId)) return errorMessage(failure);
  try {
    await getCourse(courseId);
    return errorMessage(failure);
  } catch (again) {
    if (!(again instanceof ApiError && again.status === 404)) return errorMessage(failure);
    // Their class list drops the class too.
    void queryClient.invalidateQueries({ queryKey: courseKeys.list() });
    return t('comments.notInClass');
  }
}

/** Collapsible Comments with the add form; the author and the class's teacher can delete. */
export function Comments({
  lectureId,
  courseId,
  isTeacher,
}: {
  lectureId: string;
  /** The lecture's class: a refused comment checks whether the person is still in it. */
  courseId?: string;
  isTeacher: boolean;
}) {
  const { user } = useSession();
  const [open, setOpen] = useState(true);
  const query = useComments(lectureId);
  const comments = query.data ?? [];
  const add = useAddComment(lectureId);
  const remove = useDeleteComment(lectureId);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  /** The comment being answered: its author is told by email. */
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const form = useForm({
    schema: async () => (await contract()).commentBody,
    mutation: add,
    send: (body: { text: string; parentId?: string }) =>
      body.parentId ? { ...body, parentId: body.parentId } : body.text,
  });
  const submitting = form.busy;
  /** What the contract finds wrong with the text (or the comment answered), in the words the server would answer. */
  const problem = form.problems.text ?? form.problems.parentId;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    setError('');
    await form.submit(replyTo ? { text: trimmed, parentId: replyTo._id } : { text: trimmed }, {
      onSuccess: () => {
        setText('');
        setReplyTo(null);
      },
      onError: (failure) => void refusalOf(failure, courseId).then(setError),
    });
  }

  // Offline, the comment waits in the app (TanStack Query pauses it and sends it when the connection is back): the
  // page warns before it closes, which would lose it.
  const waiting = submitting && add.isPaused;
  useEffect(() => {
    if (!waiting) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [waiting]);

  const [deleting, setDeleting] = useState<Comment | null>(null);
  const clock = useAtomValue(playerClockAtom);
  const textRef = useRef<HTMLTextAreaElement>(null);
  // "Add current time": the player's position where the cursor is, so classmates can jump there.
  const addCurrentTime = () => {
    const stamp = formatClock(clock);
    const field = textRef.current;
    const at = field?.selectionStart ?? text.length;
    const before = text.slice(0, at);
    const spaced = `${before && !before.endsWith(' ') ? ' ' : ''}${stamp} `;
    setText(`${before}${spaced}${text.slice(at)}`.slice(0, LIMITS.commentMax));
    field?.focus();
  };

  const byId = new Map(comments.map((comment) => [comment._id, comment]));
  /** One comment; a top-level one lists its replies (oldest first) in a list of its own, indented under it. */
  const renderComment = (comment: Comment, replies: Comment[] = []) => {
    const parent = comment.parentId ? byId.get(comment.parentId) : undefined;
    return (
      <li key={comment._id} className="flex gap-3" data-testid="comment">
        <Avatar src={comment.userId.profilePictureImageLink} name={comment.userId.username} size={parent ? 28 : 36} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start gap-x-2">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-baseline gap-x-2">
                <span className="text-sm font-semibold text-slate-900" translate="no">
                  {comment.userId.username}
                </span>
                {/* The spec's long date with hours and minutes, in the reader's locale; how long ago beside it. */}
                <time className="text-xs text-slate-500" dateTime={comment.createdAt}>
                  {formatLongDate(comment.createdAt)}
                  <span aria-hidden="true"> · </span>
                  <span className="text-slate-500">{formatRelative(comment.createdAt)}</span>
                </time>
              </div>
              {parent && (
                <p className="text-xs text-slate-500">
                  {rich(t('comments.inReplyTo', { name: parent.userId.username }), [
                    (name) => (
                      <span key="name" translate="no">
                        {name}
                      </span>
                    ),
                  ])}
                </p>
              )}
              <p className="mt-0.5 text-sm whitespace-pre-wrap break-words text-slate-700" translate="no">
                <TextWithTimes text={comment.text} />
              </p>
              {comment.userId._id !== user?._id && (
                <button
                  type="button"
                  // At least 24 px to hit (WCAG 2.2), 44 px on a touch screen.
                  className="-ms-1 mt-0.5 inline-flex min-h-6 min-w-6 items-center px-1 text-xs font-medium text-indigo-700 hover:text-indigo-900 pointer-coarse:min-h-11 pointer-coarse:min-w-11"
                  aria-label={t('comments.replyTo', { name: comment.userId.username })}
                  onClick={() => {
                    setReplyTo(comment);
                    textRef.current?.focus();
                  }}
                >
                  {t('comments.reply')}
                </button>
              )}
            </div>
            {(isTeacher || comment.userId._id === user?._id) && (
              <button
                type="button"
                className="icon-btn size-8 shrink-0"
                aria-label={t('comments.deleteLabel')}
                onClick={() => setDeleting(comment)}
              >
                <TrashIcon size={16} />
              </button>
            )}
          </div>
          {replies.length > 0 && (
            <ul
              aria-label={t('comments.repliesTo', { name: comment.userId.username })}
              className="mt-3 flex flex-col gap-3 border-s-2 border-slate-100 ps-3"
            >
              {replies.map((reply) => renderComment(reply))}
            </ul>
          )}
        </div>
      </li>
    );
  };

  return (
    <section aria-labelledby="comments-title" className="card">
      <h2 id="comments-title">
        <button
          type="button"
          className="flex w-full items-center justify-between px-4 py-3 text-start font-semibold text-slate-900"
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
        >
          <span>
            {t('comments.title')}{' '}
            {query.data && (
              <span className="font-normal text-slate-500">{t('comments.count', { count: comments.length })}</span>
            )}
          </span>
          <ChevronIcon size={18} className={`transition-transform ${open ? 'rotate-180' : ''}`} />
        </button>
      </h2>
      {open && (
        <div className="flex flex-col gap-4 border-t border-slate-100 p-4">
          <form onSubmit={onSubmit} onFocus={form.prefetch} className="flex flex-col gap-2">
            {replyTo && (
              <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                <span>
                  {rich(t('comments.replyingTo', { name: replyTo.userId.username }), [
                    (name) => (
                      <strong key="name" className="font-semibold" translate="no">
                        {name}
                      </strong>
                    ),
                  ])}
                </span>
                <button
                  type="button"
                  className="inline-flex min-h-6 items-center font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 pointer-coarse:min-h-11"
                  onClick={() => setReplyTo(null)}
                >
                  {t('comments.cancelReply')}
                </button>
              </p>
            )}
            <Field
              label={replyTo ? t('comments.replyTo', { name: replyTo.userId.username }) : t('comments.add')}
              labelClassName="sr-only"
              id="comment-text"
              problem={problem}
            >
              {(wiring) => (
                <textarea
                  {...wiring}
                  ref={textRef}
                  className="textarea min-h-20 aria-invalid:border-red-500"
                  placeholder={t('comments.placeholder')}
                  value={text}
                  maxLength={LIMITS.commentMax}
                  onChange={(event) => setText(event.target.value)}
                  // What is being sent stays as it is until it has gone.
                  readOnly={submitting}
                />
              )}
            </Field>
            <FormError message={error} />
            {waiting && (
              <p role="status" className="text-sm text-slate-700">
                {t('comments.offline')}
              </p>
            )}
            <div className="flex flex-wrap items-center justify-end gap-2">
              <button type="button" className="btn btn-secondary" onClick={addCurrentTime}>
                {t('comments.addTime', { time: formatClock(clock) })}
              </button>
              <button type="submit" className="btn btn-primary" disabled={!text.trim() || submitting}>
                {t(
                  waiting
                    ? 'comments.waiting'
                    : submitting
                      ? 'comments.submitting'
                      : replyTo
                        ? 'comments.reply'
                        : 'comments.submit',
                )}
              </button>
            </div>
          </form>
          {/* Offline or failed: said in words with Retry, never a spinner for ever nor an empty list. */}
          <QueryState
            query={query}
            label={t('comments.what')}
            compact
            empty={<p className="text-center text-sm text-slate-500">{t('comments.empty')}</p>}
          >
            {(loaded) => (
              <ul className="flex flex-col gap-4">
                {threads(loaded).map(({ comment, replies }) => renderComment(comment, replies))}
              </ul>
            )}
          </QueryState>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('comments.deleteTitle')}
        confirmLabel={t('common.delete')}
        busyLabel={t('common.deleting')}
        busy={remove.isPending}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting._id, {
            onSuccess: () => {
              setDeleting(null);
              toast.success(t('comments.deleted'));
            },
            onError: () => setDeleting(null),
          })
        }
        onClose={() => setDeleting(null)}
      >
        <p>
          {deleting?.userId._id === user?._id
            ? t('comments.deleteOwn')
            : rich(t('comments.deleteOther', { name: deleting?.userId.username ?? '' }), [
                (name) => (
                  <span key="name" translate="no">
                    {name}
                  </span>
                ),
              ])}
        </p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * The comments as threads: top-level ones newest first (as the server sends them), each with its replies oldest
 * first. A reply to a reply joins its thread's top comment; one whose parent is gone (deleted) stands alone.
 */
function threads(comments: Comment[]) {
  const byId = new Map(comments.map((comment) => [comment._id, comment]));
  const rootOf = (comment: Comment) => {
    let root = comment;
    const seen = new Set<string>();
    while (root.parentId && byId.has(root.parentId) && !seen.has(root._id)) {
      seen.add(root._id);
      root = byId.get(root.parentId) as Comment;
    }
    return root;
  };
  const replies = new Map<string, Comment[]>();
  const tops: Comment[] = [];
  for (const comment of comments) {
    const root = rootOf(comment);
    if (root === comment) tops.push(comment);
    else replies.set(root._id, [...(replies.get(root._id) ?? []), comment]);
  }
  const oldestFirst = (a: Comment, b: Comment) => a.createdAt.localeCompare(b.createdAt) || a._id.localeCompare(b._id);
  return tops.map((comment) => ({ comment, replies: (replies.get(comment._id) ?? []).sort(oldestFirst) }));
}

/** A comment's text, its times (12:34) turned into buttons that take the player there. */
function TextWithTimes({ text }: { text: string }) {
  const seek = useSetAtom(seekRequestAtom);
  const parts: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TIME_IN_TEXT)) {
    const index = match.index ?? 0;
    parts.push(<Fragment key={`t${last}`}>{text.slice(last, index)}</Fragment>);
    const seconds = secondsOf(match);
    parts.push(
      <button
        key={`s${index}`}
        type="button"
        className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
        aria-label={t('lectures.playFrom', { time: match[0] })}
        onClick={() => seek({ seconds, at: Date.now() })}
      >
        {match[0]}
      </button>,
    );
    last = index + match[0].length;
  }
  parts.push(<Fragment key={`t${last}`}>{text.slice(last)}</Fragment>);
  return <>{parts}</>;
}
