// Types only: the client's runtime is the small proxy below (Hono's own costs ~2 KB on the sign-in page).

import { locale, t } from '@lib/i18n';
import { readToken } from '@lib/token-cookie';
import type { ClientResponse, hc } from 'hono/client';
// Types only: no server code enters the bundle.
import type { AppType } from '../../../src/app';

/** A failed API call, with the server's `error` text and any extra fields (such as requiresVerification). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
  get requiresVerification(): boolean {
    return this.body.requiresVerification === true;
  }
  get code(): string | undefined {
    return typeof this.body.code === 'string' ? this.body.code : undefined;
  }
}

let onUnauthorized: (() => void) | undefined;

/** Called when a request that carried a token answers 401: the session has ended. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

/** A request that carried a token got 401 (for the XHR upload in ./upload-progress, which fetch cannot replace). */
export function sessionEnded() {
  onUnauthorized?.();
}

/** Leave out the bearer header (the spec's client does so on two calls; the cookie still carries it). */
export const withoutBearer = { headers: { 'x-no-bearer': '1' } };

/** Every call's fetch: bearer from the cookie, the one error shape as an ApiError, a 401 ends the session. */
async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  // The server's error sentences in the language on screen (an account's own choice wins on the server).
  headers.set('accept-language', locale);
  const token = readToken();
  if (token && !headers.has('x-no-bearer')) headers.set('authorization', `Bearer ${token}`);
  headers.delete('x-no-bearer');
  let response: Response;
  try {
    response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, t('common.cannotReach'));
  }
  if (response.ok) return response;
  let errorBody: Record<string, unknown> = {};
  try {
    const data: unknown = JSON.parse(await response.text());
    if (data && typeof data === 'object') errorBody = data as Record<string, unknown>;
  } catch {}
  const message =
    typeof errorBody.error === 'string' ? errorBody.error : t('common.requestFailed', { status: response.status });
  if (response.status === 401 && token) onUnauthorized?.();
  throw new ApiError(response.status, message, errorBody);
}

type Client = ReturnType<typeof hc<AppType>>;
type CallArgs = {
  param?: Record<string, string>;
  query?: Record<string, unknown>;
  json?: unknown;
  form?: Record<string, unknown>;
  header?: Record<string, string>;
};
type CallOptions = { headers?: Record<string, string>; init?: RequestInit };

/** One call as Hono's client makes it: path parameters, query, JSON or form body, headers; `fetch` options in `init`. */
function call(path: string[], method: string, args: CallArgs = {}, options: CallOptions = {}) {
  // A route `/` is the key `index`; `:id` segments take their parameter (a missing optional one is dropped).
  let url = `/${path.join('/')}`.replace(/\/index$/, '');
  for (const [key, value] of Object.entries(args.param ?? {})) {
    url = url.replace(new RegExp(`/:${key}(?:{[^/]+})?\\??(?=/|$)`), () =>
      value ? `/${encodeURIComponent(value)}` : '',
    );
  }
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) query.append(key, String(item));
  }
  if (query.size > 0) url += `?${query}`;
  const headers: Record<string, string> = { ...args.header, ...options.headers };
  let body: BodyInit | undefined;
  if (args.form) {
    const form = new FormData();
    for (const [key, value] of Object.entries(args.form)) {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) form.append(key, item as Blob);
    }
    body = form;
  }
  if (args.json !== undefined) {
    body = JSON.stringify(args.json);
    headers['Content-Type'] = 'application/json';
  }
  const verb = method.toUpperCase();
  return apiFetch(url, {
    method: verb,
    headers,
    body: verb === 'GET' || verb === 'HEAD' ? undefined : body,
    ...options.init,
  });
}

/** `api.a.b[':id'].$get(args, options)`: property names are path segments, a `$method` call sends the request. */
const route = (path: string[]): unknown =>
  new Proxy(() => {}, {
    get: (_target, key) => (typeof key === 'string' && key !== 'then' ? route([...path, key]) : undefined),
    apply: (_target, _this, [args, options]) =>
      call(path.slice(0, -1), (path.at(-1) ?? '').replace(/^\$/, ''), args, options),
  });

/**
 * The one way the web app talks to the server, typed by the server's routes (AppType) as Hono's RPC client is, so a
 * changed path, parameter, body or answer fails the web's type check. `api.courses[':id'].$get({ param: { id } })`.
 */
export const api = (route([]) as Client).api;

/**
 * What a route answers as JSON. A route that may also answer a raw Response (a tus HEAD, a file) has that typed as
 * `{}` by Hono: left out, so the JSON answer's type remains.
 */
type JsonOf<Answer> =
  Answer extends ClientResponse<infer Json, number, 'json'> ? (keyof Json extends never ? never : Json) : never;

/** The JSON an answer carries (refusals were thrown as ApiError by then); undefined for an empty answer. */
export async function answer<Answer extends ClientResponse<unknown>>(
  pending: Promise<Answer>,
): Promise<JsonOf<Answer>> {
  const text = await (await pending).text();
  return text ? JSON.parse(text) : (undefined as JsonOf<Answer>);
}
