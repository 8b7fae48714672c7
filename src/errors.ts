import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { loggedPath } from './http/request-log';
import { localeOfRequest, type MessageKey, type MessageValues, translate } from './i18n/translate';

/**
 * The one error shape: `{ error, message, code, fields?, ...extra }`. `message` is a catalogue key (with `values`
 * for its parameters): the answer reads it in the person's language (src/i18n), while `code` never changes.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: MessageKey,
    readonly extra: Record<string, unknown> = {},
    readonly values?: MessageValues,
  ) {
    super(message);
  }
}

export const badRequest = (
  code: string,
  message: MessageKey,
  extra?: Record<string, unknown>,
  values?: MessageValues,
) => new ApiError(400, code, message, extra, values);
export const unauthorized = (message: MessageKey = 'errors.signInFirst') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: MessageKey = 'errors.forbidden', values?: MessageValues) =>
  new ApiError(403, 'forbidden', message, {}, values);
export const notFound = (code: string, message: MessageKey, values?: MessageValues) =>
  new ApiError(404, code, message, {}, values);
export const tooMany = (message: MessageKey, retryAfterSeconds?: number, values?: MessageValues) =>
  new ApiError(429, 'too_many_requests', message, retryAfterSeconds ? { retryAfter: retryAfterSeconds } : {}, values);

/** An error answer in the request's language: `message` is a catalogue key, `extra.fields` a field → key map. */
export function errorBody(
  c: Context,
  code: string,
  message: MessageKey,
  extra: Record<string, unknown> = {},
  values?: MessageValues,
) {
  const locale = localeOfRequest(c);
  const text = translate(locale, message, values);
  const fields = extra.fields as Record<string, string> | undefined;
  const translated = fields
    ? { fields: Object.fromEntries(Object.entries(fields).map(([field, key]) => [field, translate(locale, key)])) }
    : {};
  return { error: text, message: text, code, ...extra, ...translated };
}

export function errorResponse(c: Context, error: ApiError) {
  if (typeof error.extra.retryAfter === 'number') c.header('Retry-After', String(error.extra.retryAfter));
  return c.json(errorBody(c, error.code, error.message as MessageKey, error.extra, error.values), error.status);
}

/** Maps anything thrown in a handler to the error shape; unknown errors become a logged, generic 500. */
export function handleError(error: unknown, c: Context) {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    if (status === 413) return c.json(errorBody(c, 'too_large', 'errors.fileTooLarge'), 413);
    const message: MessageKey = status === 400 ? 'errors.badBody' : 'errors.requestFailed';
    return c.json(errorBody(c, status === 400 ? 'bad_request' : 'http_error', message), status);
  }
  const log = c.get('log') as import('./lib/log').RequestLog | undefined;
  log?.error({ err: error, method: c.req.method, path: loggedPath(c.req.path) }, 'unhandled error');
  return c.json(errorBody(c, 'internal_error', 'errors.internal'), 500);
}
