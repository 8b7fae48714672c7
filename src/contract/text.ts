import { z } from 'zod';
import { ID_PATTERN, LIMITS } from './limits';

/** Zero-width characters carry nothing a reader sees: removed. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
/** Bidirectional overrides and isolates can make text read differently from what it is: refused. */
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;
/** Control characters: refused (a multi-line field keeps its line breaks and tabs). */
const CONTROL = /\p{Cc}/gu;
const LINE_CHARACTERS = new Set(['\n', '\r', '\t']);
const hasControl = (text: string, multiline: boolean) =>
  (text.match(CONTROL) ?? []).some((char) => !(multiline && LINE_CHARACTERS.has(char)));

/** A string's check: no control characters (a multi-line one keeps its line breaks and tabs); `message` says so. */
export function withoutControl<Schema extends z.ZodString>(schema: Schema, message: string, multiline = false) {
  return schema.refine((text) => !hasControl(text, multiline), message);
}

/**
 * A text field other people see (a name, a class, a topic, a comment): a string and nothing else, zero-width
 * characters stripped, control characters and direction overrides refused, trimmed, then length-checked.
 */
export function plainText(options: {
  required: string;
  tooShort: string;
  tooLong: string;
  min: number;
  max: number;
  hidden: string;
  multiline?: boolean;
}) {
  return z
    .string({ error: options.required })
    .transform((text) => text.replace(ZERO_WIDTH, ''))
    .refine((text) => !hasControl(text, options.multiline ?? false) && !BIDI.test(text), options.hidden)
    .transform((text) => text.trim())
    .pipe(z.string().min(options.min, options.tooShort).max(options.max, options.tooLong));
}

/** A topic's name, wherever one is given (the lecture routes, an upload that creates its topic). */
export const topicName = plainText({
  required: 'fields.topicNameRequired',
  tooShort: 'fields.topicNameBlank',
  tooLong: 'fields.topicNameTooLong',
  min: 1,
  max: LIMITS.topicNameMax,
  hidden: 'fields.topicNameHidden',
});

/** Ids are opaque url-safe strings; anything else cannot name a row. */
export const idSchema = z.string().regex(ID_PATTERN, 'fields.invalidId');
