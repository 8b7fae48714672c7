import { type FormEvent, useState } from 'react';
import { LIMITS } from '../../../src/contract/limits';
import { type Comment, useAddComment, useComments, useDeleteComment } from '../api/lectures';
import { errorMessage } from '../api/query-client';
import { formatLongDate } from '../lib/format';
import { useSession } from '../state/session';
import { Avatar } from './Avatar';
import { FormError } from './FormError';
import { ChevronIcon, TrashIcon } from './icons';
import { LoadError } from './QueryState';

/** Collapsible Comments with the add form; the author and the class's teacher can delete. */
export function Comments({ lectureId, isTeacher }: { lectureId: string; isTeacher: boolean }) {
  const { user } = useSession();
  const [open, setOpen] = useState(true);
  const query = useComments(lectureId);
  const comments = query.data ?? [];
  const add = useAddComment(lectureId);
  const remove = useDeleteComment(lectureId);
  const [text, setText] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState('');

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    setSubmitting(true);
    setError('');
    try {
      await add.mutateAsync(trimmed);
      setText('');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSubmitting(false);
    }
  }

  const onDelete = (comment: Comment) => remove.mutate(comment._id);

  return (
    <section aria-labelledby="comments-title" className="card">
      <h2 id="comments-title">
        <button
          type="button"
          className="flex w-full items-center justify-between px-4 py-3 text-left font-semibold text-slate-900"
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
        >
          <span>
            Comments <span className="font-normal text-slate-500">({comments.length})</span>
          </span>
          <ChevronIcon size={18} className={`transition-transform ${open ? 'rotate-180' : ''}`} />
        </button>
      </h2>
      {open && (
        <div className="flex flex-col gap-4 border-t border-slate-100 p-4">
          <form onSubmit={onSubmit} className="flex flex-col gap-2">
            <label htmlFor="comment-text" className="sr-only">
              Add a comment
            </label>
            <textarea
              id="comment-text"
              className="textarea min-h-20"
              placeholder="Share your thoughts..."
              value={text}
              maxLength={LIMITS.commentMax}
              onChange={(event) => setText(event.target.value)}
            />
            <FormError message={error} />
            <button type="submit" className="btn btn-primary self-end" disabled={!text.trim() || submitting}>
              {submitting ? 'Submitting...' : 'Add Comment'}
            </button>
          </form>
          {query.isError && !query.data ? (
            <LoadError label="comments" query={query} />
          ) : query.isPending ? (
            <p className="text-center text-sm text-slate-500">Loading comments…</p>
          ) : comments.length === 0 ? (
            <p className="text-center text-sm text-slate-500">No comments yet. Start the conversation.</p>
          ) : (
            <ul className="flex flex-col gap-4">
              {comments.map((comment) => (
                <li key={comment._id} className="flex gap-3">
                  <Avatar src={comment.userId.profilePictureImageLink} name={comment.userId.username} size={36} />
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-baseline gap-x-2">
                      <span className="text-sm font-semibold text-slate-900">{comment.userId.username}</span>
                      <time className="text-xs text-slate-500" dateTime={comment.createdAt}>
                        {formatLongDate(comment.createdAt)}
                      </time>
                    </div>
                    <p className="mt-0.5 text-sm whitespace-pre-wrap break-words text-slate-700">{comment.text}</p>
                  </div>
                  {(isTeacher || comment.userId._id === user?._id) && (
                    <button
                      type="button"
                      className="icon-btn size-8 shrink-0"
                      aria-label="Delete comment"
                      onClick={() => onDelete(comment)}
                    >
                      <TrashIcon size={16} />
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
