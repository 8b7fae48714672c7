import { type ClientResponse, hc } from 'hono/client';
// Types only: no server code enters the bundle.
import type { AppType } from '../../../src/app';
import { readToken } from '../lib/token-cookie';

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
  const token = readToken();
  if (token && !headers.has('x-no-bearer')) headers.set('authorization', `Bearer ${token}`);
  headers.delete('x-no-bearer');
  let response: Response;
  try {
    response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the server. Check your connection.');
  }
  if (response.ok) return response;
  let errorBody: Record<string, unknown> = {};
  try {
    const data: unknown = JSON.parse(await response.text());
    if (data && typeof data === 'object') errorBody = data as Record<string, unknown>;
  } catch {}
  const message = typeof errorBody.error === 'string' ? errorBody.error : `Request failed (${response.status})`;
  if (response.status === 401 && token) onUnauthorized?.();
  throw new ApiError(response.status, message, errorBody);
}

/**
 * The one way the web app talks to the server: Hono's RPC client typed by the server's routes (AppType), so a
 * changed path, parameter, body or answer fails the web's type check. `api.courses[':id'].$get({ param: { id } })`.
 */
export const api = hc<AppType>('/', { fetch: apiFetch }).api;

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
