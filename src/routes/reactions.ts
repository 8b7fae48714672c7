import { Hono } from 'hono';
import { readableLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { likesJson, viewsJson } from '../contract/engagement';
import { addLike, countView, removeLike } from '../db/queries/lectures';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError } from '../errors';
import { answers } from '../http/openapi';
import { idParam, validate } from '../http/validation';

/** Views and likes of a lecture (mounted inside the lectures routes); every route asks for a signed-in user itself. */
export function reactionsRoutes(deps: AppDeps) {
  const { db } = deps;
  const signedIn = requireUser(deps);
  return new Hono<AppEnv>()
    .patch('/:id/view', answers({ 200: viewsJson }), signedIn, validate('param', idParam), async (c) => {
      const user = c.get('user');
      const { lecture } = await readableLecture(db, user, c.req.valid('param').id);
      return c.json(await countView(db, lecture.id, user.id));
    })

    .patch('/:id/like', answers({ 200: likesJson }), signedIn, validate('param', idParam), async (c) => {
      const user = c.get('user');
      const { lecture } = await readableLecture(db, user, c.req.valid('param').id);
      const { added, noOfLikes } = await addLike(db, lecture.id, user.id);
      // The spec's client adds one locally on success, so a second like must fail rather than answer 200.
      if (!added) throw new ApiError(409, 'already_liked', 'errors.alreadyLiked', { noOfLikes });
      return c.json({ noOfLikes, liked: true });
    })

    .delete('/:id/like', answers({ 200: likesJson }), signedIn, validate('param', idParam), async (c) => {
      const user = c.get('user');
      const { lecture } = await readableLecture(db, user, c.req.valid('param').id);
      const { noOfLikes } = await removeLike(db, lecture.id, user.id);
      return c.json({ noOfLikes, liked: false });
    });
}
