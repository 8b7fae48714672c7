import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SlideIndexState, SlideJson } from '../../../../../src/contract/slides';
import { request } from '../../../api/client';
import { formatClock } from '../../../lib/format';
import { type Lecture, lectureKeys } from '../../lectures/api/lectures';

export type { SlideIndexState } from '../../../../../src/contract/slides';
export { SLIDE_LIMITS } from '../../../../../src/contract/slides';
/** One slide; `id` and `hidden` come only to the lecture's teacher. */
export type Slide = SlideJson & { id?: string; hidden?: boolean };

/** How often a lecture whose slide index is being made is asked for again. */
export const SLIDE_INDEX_POLL_MS = 3000;

export const slideKeys = {
  ofLecture: (lectureId: string) => ['lectures', lectureId, 'slides'] as const,
  indexOf: (lectureId: string) => ['lectures', lectureId, 'slide-index'] as const,
};

/** The slide index's state as the lecture carries it (`slideIndex`); undefined when the answer has no such field. */
export const slideIndexOf = (lecture: Lecture): SlideIndexState | null | undefined =>
  (lecture as Lecture & { slideIndex?: SlideIndexState | null }).slideIndex;

/**
 * A lecture's slide index: its state and its slides (the teacher's include the hidden ones, flagged). The state is
 * the lecture's `slideIndex`, asked for again every few seconds while `pending` (the class's list stops polling once
 * the video is ready, and the index is made after that), or the last the teacher's switch answered. Where a lecture
 * carries no state it is read from the list: slides mean ready, a video in processing pending.
 */
export function useLectureSlides(lecture: Lecture) {
  const listed = slideIndexOf(lecture);
  const polled = useQuery({
    queryKey: slideKeys.indexOf(lecture._id),
    queryFn: () => request<Lecture>('GET', `/lectures/${lecture._id}`).then((answer) => slideIndexOf(answer)),
    enabled: listed === 'pending',
    refetchInterval: (query) =>
      query.state.data === undefined || query.state.data === 'pending' ? SLIDE_INDEX_POLL_MS : false,
  });
  const known = polled.data !== undefined ? polled.data : listed;
  const videoReady = lecture.video?.status === 'ready';
  const slides = useQuery({
    queryKey: [...slideKeys.ofLecture(lecture._id), known ?? null] as const,
    queryFn: () => request<Slide[]>('GET', `/lectures/${lecture._id}/slides`),
    enabled: known === 'ready' || known === 'off' || (known === undefined && videoReady),
    staleTime: 60_000,
  });
  const status = lecture.video?.status;
  const state: SlideIndexState | null =
    known !== undefined
      ? known
      : !status
        ? null
        : status === 'queued' || status === 'processing'
          ? 'pending'
          : slides.data && slides.data.length > 0
            ? 'ready'
            : 'none';
  return { state, slides };
}

/** What a slide is called: its title, else the first words read on it, else its place in the lecture. */
export function slideLabel(slide: Pick<Slide, 'title' | 'text' | 'seconds'>, words = 8) {
  if (slide.title) return slide.title;
  const text = slide.text.split(/\s+/).filter(Boolean);
  if (text.length > 0) return `${text.slice(0, words).join(' ')}${text.length > words ? '…' : ''}`;
  return `Slide at ${formatClock(slide.seconds)}`;
}

/** After a teacher's change: the slides (theirs and, through the list, the chapters) and the class's lectures. */
function useInvalidateSlides(lecture: Pick<Lecture, '_id' | 'courseId'>) {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: slideKeys.ofLecture(lecture._id) }),
      client.invalidateQueries({ queryKey: slideKeys.indexOf(lecture._id) }),
      client.invalidateQueries({ queryKey: lectureKeys.ofCourse(lecture.courseId) }),
    ]);
}

/** `PUT /api/lectures/{id}/slides/{slideId}`: a title (null removes it) and/or hiding a wrong mark. */
export function useChangeSlide(lecture: Pick<Lecture, '_id' | 'courseId'>) {
  const invalidate = useInvalidateSlides(lecture);
  return useMutation({
    mutationFn: ({ slideId, ...change }: { slideId: string; title?: string | null; hidden?: boolean }) =>
      request<Slide>('PUT', `/lectures/${lecture._id}/slides/${slideId}`, { body: change }),
    onSuccess: invalidate,
  });
}

/** `PUT /api/lectures/{id}/slide-index`: the teacher switches the index off for the lecture, or on again. */
export function useSwitchSlideIndex(lecture: Pick<Lecture, '_id' | 'courseId'>) {
  const client = useQueryClient();
  const invalidate = useInvalidateSlides(lecture);
  return useMutation({
    mutationFn: (enabled: boolean) =>
      request<{ slideIndex: SlideIndexState }>('PUT', `/lectures/${lecture._id}/slide-index`, { body: { enabled } }),
    onSuccess: ({ slideIndex }) => {
      client.setQueryData(slideKeys.indexOf(lecture._id), slideIndex);
      return invalidate();
    },
  });
}
