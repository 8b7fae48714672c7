import { answer, api } from '@api/client';
import { searchKeys } from '@api/query-keys';
import type { SearchResultJson } from '@contract/search';
import { queryOptions, useQuery } from '@tanstack/react-query';

export type { SearchResultJson as SearchResult } from '@contract/search';
export type SearchHit = SearchResultJson['hits'][number];

/** GET /api/search: hits in the classes the user teaches or is enrolled in (or in one of them). */
export const searchLectures = (q: string, courseId?: string, signal?: AbortSignal) =>
  answer(api.search.$get({ query: courseId ? { q, courseId } : { q } }, { init: { signal } }));

export const searchQuery = (q: string, courseId?: string) =>
  queryOptions({
    queryKey: searchKeys.results(q, courseId),
    queryFn: ({ signal }) => searchLectures(q, courseId, signal),
    enabled: q.trim().length > 0,
    // Captions and comments change little while someone reads their results.
    staleTime: 30_000,
  });

export const useSearch = (q: string, courseId?: string) => useQuery(searchQuery(q, courseId));

/** Where a hit opens: its lecture in its class, at its second when it has one. */
export function hitLink(hit: Pick<SearchHit, 'courseId' | 'lectureId' | 'seconds'>) {
  const params = new URLSearchParams({ lecture: hit.lectureId });
  if (hit.seconds !== undefined) params.set('t', String(Math.floor(hit.seconds)));
  return `/classroom/${hit.courseId}?${params}`;
}

/** The snippet cut into plain pieces, the matched words flagged: rendered as text, never as HTML. */
export function snippetParts(hit: Pick<SearchHit, 'snippet' | 'highlights'>) {
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const [start, end] of [...hit.highlights].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > hit.snippet.length || end <= start) continue;
    if (start > at) parts.push({ text: hit.snippet.slice(at, start), match: false });
    parts.push({ text: hit.snippet.slice(start, end), match: true });
    at = end;
  }
  if (at < hit.snippet.length) parts.push({ text: hit.snippet.slice(at), match: false });
  return parts;
}
