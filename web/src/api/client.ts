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

type Options = {
  body?: unknown;
  signal?: AbortSignal;
  /** Leave out the bearer header (the spec's client does so on two calls; the cookie still carries it). */
  noAuthHeader?: boolean;
  /** Let the request finish after the page is gone (a last save when the student leaves); bodies up to 64 KB. */
  keepalive?: boolean;
};

let onUnauthorized: (() => void) | undefined;

/** Called when a request that carried a token answers 401: the session has ended. */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

/** A request that carried a token got 401 (for the XHR upload in ./upload-progress, which fetch cannot replace). */
export function sessionEnded() {
  onUnauthorized?.();
}

/** The one way the web app talks to the server: base /api, bearer from the cookie, one error shape. */
export async function request<T>(method: string, path: string, options: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = readToken();
  if (token && !options.noAuthHeader) headers.authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
      keepalive: options.keepalive,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Cannot reach the server. Check your connection.');
  }
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const errorBody = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
    const message = typeof errorBody.error === 'string' ? errorBody.error : `Request failed (${response.status})`;
    if (response.status === 401 && token) onUnauthorized?.();
    throw new ApiError(response.status, message, errorBody);
  }
  return data as T;
}
