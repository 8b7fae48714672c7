import { Hono } from 'hono';
import { readableCourse } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { type SearchResultJson, searchQuery, searchResult } from '../contract/search';
import type { AppDeps, AppEnv } from '../deps';
import { tooMany } from '../errors';
import { answers } from '../http/openapi';
import { validate } from '../http/validation';
import { createRateLimiter } from '../lib/rate-limit';
import { search, tokensOf } from '../search/query';

/** Searches a person may make per minute (a search runs on submit, not on every key). */
export const SEARCHES_PER_MINUTE = 60;

/** Not in the spec: search in the classes the user teaches or is enrolled in, or in one of them (`courseId`). */
export function searchRoutes(deps: AppDeps, options: { perMinute?: number } = {}) {
  const { db } = deps;
  const limiter = createRateLimiter(db, 'search', options.perMinute ?? SEARCHES_PER_MINUTE, 60_000);
  return new Hono<AppEnv>().get(
    '/',
    answers(
      { 200: searchResult },
      {
        summary: 'Search lecture titles, captions and comments in my classes',
        description:
          'Hits are grouped by lecture, best first, at most 50 (5 per lecture). Caption hits carry the second they are said at.',
      },
    ),
    requireUser(deps),
    validate('query', searchQuery),
    async (c) => {
      const user = c.get('user');
      const { q, courseId } = c.req.valid('query');
      const wait = await limiter.hit(user.id);
      if (wait > 0) throw tooMany('errors.tooManySearches', wait, { count: wait });
      // A class the user cannot read answers its 404, as everywhere else.
      if (courseId) await readableCourse(db, user, courseId);
      const result: SearchResultJson = await search(db, user, tokensOf(q), courseId);
      return c.json(result);
    },
  );
}
