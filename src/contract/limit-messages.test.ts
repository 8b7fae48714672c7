import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEARCH_LIMITS } from '../search/query';
import { LIMITS } from './limits';

/**
 * A field's message is a catalogue key read without values (src/http/validation.ts), so a limit it names is
 * written in every language's text. This keeps those numbers equal to LIMITS: change a limit, and this says which
 * messages to change with it.
 */
const NUMBERS: Record<string, number> = {
  'fields.descriptionTooLong': LIMITS.descriptionMax,
  'fields.chapterTitleTooLong': LIMITS.chapterTitleMax,
  'fields.tooManyChapters': LIMITS.chaptersMax,
  'fields.classNameTooLong': LIMITS.courseNameMax,
  'fields.semesterRange': LIMITS.semesterMax,
  'fields.notesTooLong': LIMITS.notesMax,
  'fields.commentTooLong': LIMITS.commentMax,
  'fields.captionLabelTooLong': LIMITS.captionLabelMax,
  'fields.slideTitleTooLong': LIMITS.slideTitleMax,
  'fields.searchTooLong': SEARCH_LIMITS.queryMax,
  'fields.topicNameTooLong': LIMITS.topicNameMax,
  'fields.passwordTooShort': LIMITS.passwordMin,
  'fields.passwordTooLong': LIMITS.passwordMax,
  'fields.nameTooShort': LIMITS.usernameMin,
  'fields.nameTooLong': LIMITS.usernameMax,
  'fields.otpDigits': LIMITS.otpDigits,
};

const catalogue = (code: string) =>
  JSON.parse(readFileSync(join(import.meta.dir, '..', '..', 'locales', `${code}.json`), 'utf8')) as Record<
    string,
    string
  >;

test('the limits written in field messages are the limits the schemas enforce, in every language', () => {
  for (const code of ['en', 'es', 'fr', 'pt-BR', 'hi', 'ar']) {
    const messages = catalogue(code);
    for (const [key, limit] of Object.entries(NUMBERS)) {
      // Written plainly, or grouped as the language groups thousands (100,000 · 100.000 · 100 000 · 1,00,000).
      const digits = (messages[key] ?? '').replace(/(\d)[,. \u00a0\u202f](?=\d)/g, '$1');
      expect({ code, key, has: digits.includes(String(limit)) }).toEqual({ code, key, has: true });
    }
  }
});
