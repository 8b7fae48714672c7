import { answer, api } from '@api/client';
import { lectureKeys } from '@api/query-keys';
// Types only from the contract: its values bring zod (75 KB on the wire) to the course page, which imports this file.
import type { InsightFilter, InsightSort } from '@contract/insight';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

export type {
  InsightCellJson as InsightCell,
  InsightFilter,
  InsightJson,
  InsightLectureJson as InsightLecture,
  InsightSort,
  InsightStudentJson,
} from '@contract/insight';

export type InsightParams = {
  page: number;
  size: number;
  sort: InsightSort;
  dir: 'asc' | 'desc';
  filter: InsightFilter;
  lecture?: string;
};

/** The teacher's table (issue 33): one page of the class's students, each lecture's coverage. */
export function useInsight(courseId: string, params: InsightParams) {
  const query: Record<string, string | number> = { ...params };
  if (!params.lecture) delete query.lecture;
  return useQuery({
    queryKey: lectureKeys.insightOfCourse(courseId, query),
    queryFn: () => answer(api.courses[':id'].insight.$get({ param: { id: courseId }, query: query as never })),
    // The page shown stays while the next one (another sort, filter or page) loads.
    placeholderData: keepPreviousData,
  });
}

/** One student's coverage of each lecture, part by part (the teacher, or the student themselves). */
export function useStudentInsight(courseId: string, userId: string | null) {
  return useQuery({
    queryKey: lectureKeys.insightOfStudent(courseId, userId ?? ''),
    queryFn: () =>
      answer(api.courses[':id'].insight.students[':userId'].$get({ param: { id: courseId, userId: userId ?? '' } })),
    enabled: userId !== null,
  });
}

/** Where the class played a lecture, part by part (the teacher's strip over the seek bar). */
export function useStrip(lectureId: string) {
  return useQuery({
    queryKey: lectureKeys.strip(lectureId),
    queryFn: () => answer(api.lectures[':id'].insight.strip.$get({ param: { id: lectureId } })),
    staleTime: 60_000,
  });
}

/** A student's lectures due, across their classes, soonest first. */
export function useTodo(enabled: boolean) {
  return useQuery({
    queryKey: lectureKeys.todo(),
    queryFn: () => answer(api.todo.$get()),
    enabled,
  });
}
