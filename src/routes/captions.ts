import { Hono } from 'hono';
import { z } from 'zod';
import { readableLecture, taughtLecture } from '../auth/access';
import { requireUser } from '../auth/middleware';
import { captionFields, captionJson, toCaptionJson } from '../contract/lectures';
import { ID_CHARS, LIMITS } from '../contract/limits';
import { messageJson } from '../contract/users';
import { captionOfLecture, deleteCaption, putCaption, videoById } from '../db/queries/lectures';
import type { AppDeps, AppEnv } from '../deps';
import { ApiError, badRequest, notFound } from '../errors';
import { smallFileForm } from '../http/form-file';
import { answers, multipartBody } from '../http/openapi';
import { idSchema, invalidInput, validate } from '../http/validation';
import { localeOfRequest, translate } from '../i18n/translate';
import { subtitlePlaylist, toWebVtt } from '../media/captions';

const captionParam = z.object({ id: idSchema, captionId: idSchema });
const captionFileParam = z.object({
  id: idSchema,
  file: z.string().regex(new RegExp(`^${ID_CHARS}\\.(vtt|m3u8)$`), 'fields.notCaptionFile'),
});
const captionFile = smallFileForm({
  field: 'file',
  maxBytes: LIMITS.captionMaxBytes,
  tooLarge: () =>
    new ApiError(413, 'too_large', 'errors.captionFileTooLarge', {}, { kb: LIMITS.captionMaxBytes / 1024 }),
  missing: 'fields.chooseCaptionFile',
  badForm: 'errors.sendCaptionsAsForm',
});

/**
 * Captions of a lecture (WebVTT, or SRT converted); mounted inside the lectures routes. Every route asks for a
 * signed-in user itself.
 */
export function captionsRoutes(deps: AppDeps) {
  const { db } = deps;
  const signedIn = requireUser(deps);
  return (
    new Hono<AppEnv>()
      .post(
        '/:id/captions',
        answers(
          { 200: captionJson, 201: captionJson },
          {
            summary: "Add or replace a lecture's captions in one language (WebVTT or SRT)",
            requestBody: multipartBody('file', {
              language: 'BCP 47 language tag, such as en or pt-BR',
              label: 'What students see in the captions menu, such as English',
            }),
          },
        ),
        signedIn,
        validate('param', z.object({ id: idSchema })),
        captionFile.limit,
        async (c) => {
          const lecture = await taughtLecture(db, c.get('user'), c.req.valid('param').id);
          const { form, file } = await captionFile.read(c);
          const fields = captionFields.safeParse({ language: form.language, label: form.label });
          if (!fields.success) throw invalidInput(fields.error.issues, 'form');
          let text: string;
          try {
            text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
          } catch {
            throw badRequest('bad_captions', 'errors.captionsNotUtf8', { fields: { file: 'fields.notUtf8' } });
          }
          const converted = toWebVtt(text);
          if ('error' in converted) {
            throw badRequest(
              'bad_captions',
              converted.error,
              // Under the file field, the same sentence: which line is wrong, in the person's language.
              {
                fields: { file: translate(localeOfRequest(c), converted.error, converted.values) },
                line: converted.line ?? null,
              },
              converted.values,
            );
          }
          const saved = await putCaption(
            db,
            { lectureId: lecture.id, language: fields.data.language, label: fields.data.label, vtt: converted.vtt },
            LIMITS.captionsPerLecture,
          );
          if (!saved) {
            throw new ApiError(
              409,
              'too_many_captions',
              'errors.tooManyCaptions',
              {},
              { max: LIMITS.captionsPerLecture },
            );
          }
          return c.json(toCaptionJson(lecture.id, saved.row), saved.created ? 201 : 200);
        },
      )

      .delete(
        '/:id/captions/:captionId',
        answers({ 200: messageJson }),
        signedIn,
        validate('param', captionParam),
        async (c) => {
          const { id, captionId } = c.req.valid('param');
          const lecture = await taughtLecture(db, c.get('user'), id);
          const caption = await captionOfLecture(db, lecture.id, captionId);
          if (!caption) throw notFound('caption_not_found', 'errors.captionNotFound');
          await deleteCaption(db, caption.id);
          return c.json({ message: 'Captions deleted' });
        },
      )

      // The WebVTT file (the player's <track>), and the one-segment playlist the master lists for native HLS players.
      .get(
        '/:id/captions/:file',
        answers({
          200: {
            media: 'text/vtt',
            description: 'The WebVTT file (`.vtt`), or its one-segment HLS playlist (`.m3u8`).',
          },
        }),
        signedIn,
        validate('param', captionFileParam),
        async (c) => {
          const { id, file } = c.req.valid('param');
          const { lecture } = await readableLecture(db, c.get('user'), id);
          const [captionId, kind] = file.split('.') as [string, 'vtt' | 'm3u8'];
          const caption = await captionOfLecture(db, lecture.id, captionId);
          if (!caption) throw notFound('caption_not_found', 'errors.captionNotFound');
          const headers = {
            'Cache-Control': 'private, no-cache',
            'Last-Modified': new Date(caption.updatedAt).toUTCString(),
          };
          if (kind === 'vtt')
            return c.body(caption.vtt, 200, { ...headers, 'Content-Type': 'text/vtt; charset=utf-8' });
          const video = lecture.videoId ? await videoById(db, lecture.videoId) : undefined;
          return c.body(subtitlePlaylist(`${caption.id}.vtt`, (video?.durationMs ?? 0) / 1000), 200, {
            ...headers,
            'Content-Type': 'application/vnd.apple.mpegurl',
          });
        },
      )
  );
}
