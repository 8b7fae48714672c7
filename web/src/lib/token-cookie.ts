const TOKEN_COOKIE = 'token';
const SEVEN_DAYS_SECONDS = 7 * 24 * 60 * 60;

export function readToken(): string | undefined {
  const match = document.cookie.match(/(?:^|;\s*)token=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : undefined;
}

export function storeToken(token: string): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps the token in a cookie named token
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${SEVEN_DAYS_SECONDS}; Path=/; SameSite=Lax${secure}`;
}

export function clearToken(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: see storeToken
  document.cookie = `${TOKEN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
}
