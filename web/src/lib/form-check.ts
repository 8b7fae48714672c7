import type { ZodType } from 'zod';

/**
 * Loads a contract module of request schemas (a dynamic import, so zod never rides on a first page; forms prefetch
 * it on focus). zod is told first not to compile its checks with eval: the page's CSP has no 'unsafe-eval', and
 * zod's probe for it would be reported as a violation.
 */
export async function loadSchemas<Module>(load: () => Promise<Module>): Promise<Module> {
  (await import('zod')).config({ jitless: true });
  return load();
}

/**
 * A form's values checked with the server's own request schema (src/contract), before anything is sent: the
 * problem in the words the server's 400 would give (`field: message`), or null.
 */
export async function problemOf(schema: ZodType, values: unknown): Promise<string | null> {
  const result = await schema.safeParseAsync(values);
  if (result.success) return null;
  const [issue] = result.error.issues;
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}
