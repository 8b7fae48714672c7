import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
import type { LectureJson } from '@contract/lectures';
import type { SlideIndexState, SlideJson } from '@contract/slides';
import { formatClock } from '@lib/format';
import { t } from '@lib/i18n';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { SlideIndexState } from '@contract/slides';
/** One slide; `id` and `hidden` come only to the lecture's teacher. */
export type Slide = SlideJson & { id?: string; hidden?: boolean };

/** How often a lecture whose slide index is being made is asked for again. */
export const SLIDE_INDEX_POLL_MS = 4000;

/** A lecture's slide index: its state (the list's `X-Slide-Index` header) and its slides in time order. */
export type SlideIndex = { state: SlideIndexState; slides: Slide[] };

export const slideIndexQuery = (lectureId: string, videoId: string | undefined) =>
  queryOptions({
    queryKey: lectureKeys.slideIndex(lectureId, videoId),
    queryFn: async ({ signal }): Promise<SlideIndex> => {
      const response = await api.lectures[':id'].slides.$get({ param: { id: lectureId } }, { init: { signal } });
      const state = (response.headers.get('X-Slide-Index') ?? 'none') as SlideIndexState;
      return { state, slides: (await response.json()) as Slide[] };
    },
    enabled: videoId !== undefined,
    // The index is made after the video: while it is being made, ask again every few seconds.
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? SLIDE_INDEX_POLL_MS : false),
  });

/**
 * A lecture's slide index (the teacher's list includes the hidden slides, flagged, and those of an index switched
 * off). `state` is null while it loads or when the lecture has no video.
 */
export function useLectureSlides(lecture: LectureJson) {
  const query = useQuery(slideIndexQuery(lecture._id, lecture.video?._id));
  return { state: query.data?.state ?? null, slides: query.data?.slides ?? [], query };
}

/** What a slide is called: its title, else the first words read on it, else its place in the lecture. */
export function slideLabel(slide: Pick<Slide, 'title' | 'text' | 'seconds'>, words = 8) {
  if (slide.title) return slide.title;
  const text = slide.text.split(/\s+/).filter(Boolean);
  if (text.length > 0) return `${text.slice(0, words).join(' ')}${text.length > words ? '…' : ''}`;
  return t('slides.atTime', { time: formatClock(slide.seconds) });
}

/**
 * A slide as a screen reader names it: its place, its words (title, else the first words read on it) and its time,
 * e.g. "Slide 3: Plants make sugar from light, at 0:45" ("Slide 3, at 0:45" when nothing was read on it).
 */
export function slideName(slide: Pick<Slide, 'title' | 'text' | 'seconds'>, position: number) {
  const hasWords = !!slide.title || slide.text.trim() !== '';
  const time = formatClock(slide.seconds);
  return hasWords
    ? t('slides.name.words', { position, label: slideLabel(slide), time })
    : t('slides.name.plain', { position, time });
}

/** After a teacher's change: the slides (theirs and, through the list, the chapters) and the class's lectures. */
function useInvalidateSlides(lecture: Pick<LectureJson, '_id' | 'courseId'>) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: lectureKeys.slides(lecture._id) }),
      client.invalidateQueries({ queryKey: lectureKeys.ofCourse(lecture.courseId) }),
    ]);
}

/** `PUT /api/lectures/{id}/slides/{slideId}`: a title (null removes it) and/or hiding a wrong mark. */
export function useChangeSlide(lecture: Pick<LectureJson, '_id' | 'courseId'>) {
  const invalidate = useInvalidateSlides(lecture);
  return useMutation({
    mutationFn: ({ slideId, ...change }: { slideId: string; title?: string | null; hidden?: boolean }) =>
      answer(api.lectures[':id'].slides[':slideId'].$put({ param: { id: lecture._id, slideId }, json: change })),
    onSuccess: invalidate,
  });
}

/** `PUT /api/lectures/{id}/slide-index`: the teacher switches the index off for the lecture, or on again. */
export function useSwitchSlideIndex(lecture: Pick<LectureJson, '_id' | 'courseId'>) {
  const invalidate = useInvalidateSlides(lecture);
  return useMutation({
    mutationFn: (enabled: boolean) =>
      answer(api.lectures[':id']['slide-index'].$put({ param: { id: lecture._id }, json: { enabled } })),
    onSuccess: invalidate,
  });
}
