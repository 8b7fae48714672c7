import type { ZodType } from 'zod';

/**
 * A form's values checked with the server's own request schema (src/contract), before anything is sent. Forms load
 * the contract module with a dynamic import (prefetched when the form gets focus), so zod never rides on a first
 * page. The answer is the problem in the words the server's 400 would give (`field: message`), or null.
 */
export async function problemOf(schema: ZodType, values: unknown): Promise<string | null> {
  const result = await schema.safeParseAsync(values);
  if (result.success) return null;
  const [issue] = result.error.issues;
  const field = issue.path.map(String).join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}
