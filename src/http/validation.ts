import type { ValidationTargets } from 'hono';
import { validator } from 'hono-openapi';
import type { ZodType } from 'zod';
import { z } from 'zod';
import { idSchema } from '../contract/text';
import { ApiError } from '../errors';
import { isMessageKey, type MessageKey } from '../i18n/translate';

/**
 * The one request validator: checks a zod schema, turns a failure into our 400 error shape, and registers the
 * schema with the OpenAPI description (`/api/openapi.json`), so the document is made from what is enforced.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return validator(target, schema, (result) => {
    // The schema's own words first; a NUL it let through is refused too, on both engines (PostgreSQL cannot store one).
    const hidden = nulIssues(result.data);
    if (!result.success || hidden.length > 0) {
      throw invalidInput([...(result.success ? [] : result.error), ...hidden], target);
    }
  });
}

const NUL_MESSAGE: MessageKey = 'errors.hiddenCharacters';

/** Every place in a request's input (a value or a key) holding a NUL character, as issues. */
export function nulIssues(input: unknown, path: PropertyKey[] = [], depth = 0): Issue[] {
  if (typeof input === 'string') return input.includes('\0') ? [{ message: NUL_MESSAGE, path }] : [];
  if (typeof input !== 'object' || input === null || depth > 20) return [];
  return Object.entries(input).flatMap(([key, value]) => {
    const at = [...path, Array.isArray(input) ? Number(key) : key];
    return key.includes('\0') ? [{ message: NUL_MESSAGE, path: at }] : nulIssues(value, at, depth + 1);
  });
}

type Issue = { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> };

/** Schema issues as our 400: `fields` maps each field to its first problem; the message names the first one. */
export function invalidInput(issues: readonly Issue[], fallbackField: string): ApiError {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key =
      (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.') || fallbackField;
    fields[key] ??= issue.message;
  }
  // A schema's own message is a catalogue key; zod's built-in ones (a shape no form sends) read as one sentence.
  for (const [field, message] of Object.entries(fields))
    if (!isMessageKey(message)) fields[field] = 'errors.invalidInput';
  const first = Object.values(fields)[0] ?? 'errors.invalidInput';
  return new ApiError(400, 'invalid_input', first as MessageKey, { fields });
}

export { idSchema };
export const idParam = z.object({ id: idSchema });
