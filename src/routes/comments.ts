import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { commentBody, commentJson, toCommentJson } from '../contract/engagement';
import { messageJson } from '../contract/users';
import { addComment, commentOfLecture, commentsOf, deleteComment } from '../db/queries/engagement';
import type { AppDeps, AppEnv } from '../deps';
import { forbidden, notFound } from '../errors';
import { answers } from '../http/openapi';
import { idParam, idSchema, validate } from '../http/validation';

const commentParam = z.object({ id: idSchema, commentId: idSchema });

/** Comments of a lecture (mounted inside the lectures routes); every route asks for a signed-in user itself. */
export function commentsRoutes(deps: AppDeps) {
  const { db } = deps;
  const signedIn = requireUser(deps);
  return new Hono<AppEnv>()
    .get('/:id/comments', answers({ 200: z.array(commentJson) }), signedIn, validate('param', idParam), async (c) => {
      const { lecture } = await readableLecture(db, c.get('user'), c.req.valid('param').id);
      return c.json((await commentsOf(db, lecture.id)).map(toCommentJson));
    })

    .post(
      '/:id/comments',
      answers({ 201: commentJson }),
      signedIn,
      validate('param', idParam),
      validate('json', commentBody),
      async (c) => {
        const user = c.get('user');
        const { lecture } = await readableLecture(db, user, c.req.valid('param').id);
        const { text, parentId } = c.req.valid('json');
        if (parentId && !(await commentOfLecture(db, lecture.id, parentId)))
          throw notFound('comment_not_found', 'errors.parentCommentNotFound');
        // Its notification job is enqueued in the comment's own transaction (src/wiring.ts).
        const row = await addComment(db, { lectureId: lecture.id, userId: user.id, text, parentId });
        deps.jobs.wake();
        return c.json(toCommentJson({ ...row, username: user.username, avatarVersion: user.avatarVersion }), 201);
      },
    )

    .delete(
      '/:id/comments/:commentId',
      answers({ 200: messageJson }),
      signedIn,
      validate('param', commentParam),
      async (c) => {
        const user = c.get('user');
        const { id, commentId } = c.req.valid('param');
        const { lecture, membership } = await readableLecture(db, user, id);
        const comment = await commentOfLecture(db, lecture.id, commentId);
        if (!comment) throw notFound('comment_not_found', 'errors.commentNotFound');
        if (comment.userId !== user.id && membership !== 'teacher')
          throw forbidden('errors.onlyAuthorOrTeacherDeletes');
        await deleteComment(db, comment.id);
        return c.json({ message: 'Comment deleted' });
      },
    );
}
