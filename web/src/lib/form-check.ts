import type { ZodType } from 'zod';
import { loadAllMessages, type MessageKey, t } from './i18n';

/**
 * Loads a contract module of request schemas (a dynamic import, so zod never rides on a first page; forms prefetch
 * it on focus). zod is told first not to compile its checks with eval: the page's CSP has no 'unsafe-eval', and
 * zod's probe for it would be reported as a violation.
 */
export async function loadSchemas<Module>(load: () => Promise<Module>): Promise<Module> {
  // The schemas' messages are catalogue keys: every message of the language comes with them.
  const [zod] = await Promise.all([import('zod'), loadAllMessages()]);
  zod.config({ jitless: true });
  return load();
}

/** Each field's first problem, keyed by its path (`parentId`, `a.b`), as the server's 400 gives them in `fields`. */
export type FieldProblems = Record<string, string>;

/**
 * A form's values checked with the server's own request schema (src/contract), before anything is sent: each
 * field's first problem in the words the server's 400 would give, empty when the values would be taken. At once:
 * no contract schema refines asynchronously.
 */
export function fieldProblems(schema: ZodType, values: unknown): FieldProblems {
  const problems: FieldProblems = {};
  for (const issue of schema.safeParse(values).error?.issues ?? [])
    problems[issue.path.map(String).join('.')] ??= t(issue.message as MessageKey);
  return problems;
}
