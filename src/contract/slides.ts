import { z } from 'zod';
import type { Slide, Video } from '../db/schema';
import { LIMITS } from './limits';
import { plainText } from './text';

/**
 * The slide index of a lecture as a client reads it (a lecture's `slideIndex`, the `X-Slide-Index` header of its
 * slide list, the answer of the teacher's switch): `pending` (the video is processing, or detection waits or runs), `ready`, `none` (the
 * video is not slides, or was processed before there was an index), `off` (the teacher switched it off).
 */
export const SLIDE_INDEX_STATES = ['pending', 'ready', 'none', 'off'] as const;
export type SlideIndexState = (typeof SLIDE_INDEX_STATES)[number];

export function slideIndexState(
  video: Pick<Video, 'status' | 'slidesState' | 'slidesOff'> | undefined | null,
): SlideIndexState | null {
  if (!video) return null;
  if (video.slidesOff) return 'off';
  if (video.status === 'queued' || video.status === 'processing') return 'pending';
  if (video.status !== 'ready') return 'none';
  if (video.slidesState === 'pending') return 'pending';
  return video.slidesState === 'ready' ? 'ready' : 'none';
}

/** A slide's thumbnail (WebP, 320 px wide): served to those who may watch the lecture. */
export const slideThumbnailUrl = (lectureId: string, slideId: string) =>
  `/api/lectures/${lectureId}/slides/${slideId}.webp`;

/**
 * One slide as `GET /api/lectures/{id}/slides` answers it: `seconds` (where it starts), `thumbnail`, `text` (the
 * words read on it), `title` (the teacher's, or null: a titled slide is a chapter). The teacher also gets `id` and
 * `hidden`, which their controls need.
 */
export const slideJson = z.object({
  seconds: z.number(),
  thumbnail: z.string(),
  text: z.string(),
  title: z.string().nullable(),
  /** The teacher's only. */
  id: z.string().optional(),
  /** The teacher's only: a hidden mark students do not see. */
  hidden: z.boolean().optional(),
});
export type SlideJson = z.infer<typeof slideJson>;

/** The teacher's switch answers the index's state. */
export const slideIndexJson = z.object({ slideIndex: z.enum(SLIDE_INDEX_STATES) });

export function toSlideJson(lectureId: string, slide: Slide, forTeacher: boolean): SlideJson {
  return {
    seconds: slide.seconds,
    thumbnail: slideThumbnailUrl(lectureId, slide.id),
    text: slide.text,
    title: slide.title,
    ...(forTeacher ? { id: slide.id, hidden: slide.hidden } : {}),
  };
}

/** `PUT /api/lectures/{id}/slides/{slideId}`: a title (null or empty removes it) and/or hiding a wrong mark. */
export const slideChange = z
  .object({
    title: plainText({
      required: 'fields.slideTitleText',
      tooShort: 'fields.slideTitleText',
      tooLong: 'fields.slideTitleTooLong',
      min: 0,
      max: LIMITS.slideTitleMax,
      hidden: 'fields.slideTitleHidden',
    })
      .nullable()
      .optional(),
    hidden: z.boolean({ error: 'fields.hiddenBoolean' }).optional(),
  })
  .strict()
  .refine((body) => body.title !== undefined || body.hidden !== undefined, 'fields.slideTitleOrHidden');

/** `PUT /api/lectures/{id}/slide-index`: the teacher switches the index off, or on again. */
export const slideIndexChange = z.object({ enabled: z.boolean({ error: 'enabled must be true or false.' }) }).strict();
