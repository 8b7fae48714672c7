import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type { ZodType } from 'zod';
import { z } from 'zod';
import { ID_PATTERN } from '../contract/limits';
import { ApiError } from '../errors';

/** zValidator with the shared hook that turns a zod failure into our 400 error shape. */
export function validate<Target extends keyof ValidationTargets, Schema extends ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (result.success) return;
    const fields: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join('.') || target;
      fields[key] ??= issue.message;
    }
    const [firstField, firstMessage] = Object.entries(fields)[0] ?? [target, 'Invalid input.'];
    throw new ApiError(400, 'invalid_input', `${firstField}: ${firstMessage}`, { fields });
  });
}

/** Ids are opaque url-safe strings; anything else cannot name a row. */
export const idSchema = z.string().regex(ID_PATTERN, 'Not a valid id.');
export const idParam = z.object({ id: idSchema });
