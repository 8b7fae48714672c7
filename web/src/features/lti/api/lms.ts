import { answer, api } from '@api/client';
import { lmsKeys } from '@api/query-keys';
import type { LtiCourseJson, ScoreSource } from '@contract/lti-services';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { LtiCourseJson as LmsSection, LtiLinkJson as LmsLink, ScoreSource } from '@contract/lti-services';

/** While a roster sync waits or runs, the section asks again this often. */
const SYNC_POLL_MS = 2000;

const syncing = (section: LtiCourseJson | undefined) =>
  section?.rosterSync?.state === 'queued' || section?.rosterSync?.state === 'running';

export const lmsSectionQuery = (courseId: string) =>
  queryOptions({
    queryKey: lmsKeys.ofCourse(courseId),
    queryFn: () => answer(api.courses[':id'].lti.$get({ param: { id: courseId } })),
    refetchInterval: (query) => (syncing(query.state.data) ? SYNC_POLL_MS : false),
  });

/** The class's LMS links, roster and grade sources (its teacher only). */
export const useLmsSection = (courseId: string) => useQuery(lmsSectionQuery(courseId));

/** Asks for a roster sync now; the section follows it until it ends, then the class's roster shows who came. */
export function useRosterSync(courseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => answer(api.courses[':id'].lti['roster-sync'].$post({ param: { id: courseId } })),
    onSuccess: ({ job }) => {
      client.setQueryData(lmsKeys.ofCourse(courseId), (section: LtiCourseJson | undefined) =>
        section ? { ...section, rosterSync: job } : section,
      );
      return client.invalidateQueries({ queryKey: lmsKeys.ofCourse(courseId) });
    },
  });
}

/** Whether a lecture's grade in the LMS is the percent watched or the question score. */
export function useScoreSource(courseId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ linkId, scoreSource }: { linkId: string; scoreSource: ScoreSource }) =>
      answer(
        api.courses[':id'].lti.links[':linkId'].$patch({ param: { id: courseId, linkId }, json: { scoreSource } }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: lmsKeys.ofCourse(courseId) }),
  });
}
