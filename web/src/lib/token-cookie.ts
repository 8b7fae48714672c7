const TOKEN_COOKIE = 'token';
/** Where an LTI launch leaves the token when the browser keeps no cookie in the LMS's frame (src/lti/pages.ts). */
const FRAME_TOKEN_KEY = 'classroom.token';
const SEVEN_DAYS_SECONDS = 7 * 24 * 60 * 60;

/** Inside another site's frame (an LMS): the cookie must be SameSite=None; Secure; Partitioned to be kept. */
const inFrame = () => {
  try {
    return window.top !== window.self;
  } catch {
    return true;
  }
};

function frameToken(): string | undefined {
  try {
    return sessionStorage.getItem(FRAME_TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function readToken(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)token=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : frameToken();
}

export function storeToken(token: string): void {
  const attributes = inFrame()
    ? '; SameSite=None; Secure; Partitioned'
    : `; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the token in a cookie named token
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${SEVEN_DAYS_SECONDS}; Path=/${attributes}`;
}

export function clearToken(): void {
  const attributes = inFrame() ? '; SameSite=None; Secure; Partitioned' : '; SameSite=Lax';
  // biome-ignore lint/suspicious/noDocumentCookie: see storeToken
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/${attributes}`;
  try {
    sessionStorage.removeItem(FRAME_TOKEN_KEY);
  } catch {
    // storage blocked: nothing was kept there
  }
}
