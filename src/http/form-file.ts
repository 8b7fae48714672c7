import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { type ApiError, badRequest } from '../errors';
import type { MessageKey } from '../i18n/translate';

/**
 * A small multipart body with one file (a profile picture, a caption file): `limit` refuses an over-size body
 * before it is read (with room for the other fields), `read` answers the form and its non-empty file, or throws
 * our 400 naming the field. Video uploads stream instead (media/receive-upload.ts, the tus routes).
 */
export function smallFileForm(options: {
  field: string;
  maxBytes: number;
  tooLarge: () => ApiError;
  /** What a missing or empty file is told, e.g. "Please select an image file to upload." */
  missing: MessageKey;
  /** What a body that is no form is told: "Please send the picture as multipart form data." */
  badForm: MessageKey;
}) {
  return {
    limit: bodyLimit({
      maxSize: options.maxBytes + 64 * 1024,
      onError: () => {
        throw options.tooLarge();
      },
    }),
    async read(c: Context) {
      const form = await c.req.parseBody().catch(() => {
        throw badRequest('bad_form', options.badForm);
      });
      const file = form[options.field];
      if (!(file instanceof File) || file.size === 0) {
        throw badRequest('missing_file', options.missing, { fields: { [options.field]: options.missing } });
      }
      if (file.size > options.maxBytes) throw options.tooLarge();
      return { form, file };
    },
  };
}
