import { z } from 'zod';
import { SEARCH_KINDS } from '../db/schema';
import { idSchema } from '../http/validation';
import { SEARCH_LIMITS, tokensOf } from '../search/query';

/**
 * `GET /api/search?q=…&courseId=…`: the words to find (trimmed, 1 to 200 characters, with at least one letter or
 * digit) and, optionally, the one class to look in.
 */
export const searchQuery = z.object({
  q: z
    .string({ error: 'fields.searchRequired' })
    .max(10 * SEARCH_LIMITS.queryMax, 'fields.searchTooLong')
    .transform((text) => text.trim())
    .refine((text) => text.length > 0, 'fields.searchRequired')
    .refine((text) => text.length <= SEARCH_LIMITS.queryMax, 'fields.searchTooLong')
    .refine((text) => tokensOf(text).length > 0, 'fields.searchNoWords'),
  courseId: idSchema.optional(),
});

/** One hit: where it is (lecture, class, second), what kind of text matched, and the matching line to show. */
export const searchHit = z.object({
  lectureId: z.string(),
  courseId: z.string(),
  kind: z.enum(SEARCH_KINDS),
  /** The matching text (a window of it when long); plain text, never markup. */
  snippet: z.string(),
  /** Where the searched words are in `snippet`: [start, end) offsets in UTF-16 code units. */
  highlights: z.array(z.tuple([z.number(), z.number()])),
  /** The second of the lecture the hit is at (caption cues, chapters, slides); absent for titles and comments. */
  seconds: z.number().optional(),
  /** A slide's thumbnail URL (kind `slide`): the picture the words were read on. */
  thumbnail: z.string().optional(),
  lectureTitle: z.string(),
  courseName: z.string(),
});

export const searchResult = z.object({
  hits: z.array(searchHit),
  /** More matched than were answered: the person can narrow the search. */
  more: z.boolean(),
});

export type SearchResultJson = z.infer<typeof searchResult>;
