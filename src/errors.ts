import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loggedPath } from './http/request-log';

/** The one error shape: `{ error, message, code, fields?, ...extra }`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string, extra?: Record<string, unknown>) =>
  new ApiError(400, code, message, extra);
export const unauthorized = (message = 'Please log in to continue.') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'You are not allowed to do that.') => new ApiError(403, 'forbidden', message);
export const notFound = (code: string, message: string) => new ApiError(404, code, message);
export const tooMany = (message: string, retryAfterSeconds?: number) =>
  new ApiError(429, 'too_many_requests', message, retryAfterSeconds ? { retryAfter: retryAfterSeconds } : {});

export function errorBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: message, message, code, ...extra };
}

export function errorResponse(c: Context, error: ApiError) {
  if (typeof error.extra.retryAfter === 'number') c.header('Retry-After', String(error.extra.retryAfter));
  return c.json(errorBody(error.code, error.message, error.extra), error.status);
}

/** Maps anything thrown in a handler to the error shape; unknown errors become a logged, generic 500. */
export function handleError(error: unknown, c: Context) {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return c.json(errorBody('too_large', 'The file is too large.'), 413);
    const message = status === 400 ? 'The request body could not be read.' : error.message || 'Request failed.';
    return c.json(errorBody(status === 400 ? 'bad_request' : 'http_error', message), status);
  }
  const log = c.get('log') as import('./lib/log').RequestLog | undefined;
  log?.error({ err: error, method: c.req.method, path: loggedPath(c.req.path) }, 'unhandled error');
  return c.json(errorBody('internal_error', 'Something went wrong on our side. Please try again.'), 500);
}
