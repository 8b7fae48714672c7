import { answer, api } from '@api/client';
import { adminKeys } from '@api/query-keys';
import type { PlatformBody } from '@contract/lti';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export type { PlatformJson as Platform } from '@contract/lti';

const platformsQuery = () =>
  queryOptions({
    queryKey: adminKeys.ltiPlatforms(),
    queryFn: () => answer(api.admin.lti.platforms.$get()),
  });
const toolQuery = () =>
  queryOptions({ queryKey: adminKeys.ltiTool(), queryFn: () => answer(api.admin.lti.tool.$get()) });

export const useLtiPlatforms = () => useQuery(platformsQuery());
export const useLtiTool = () => useQuery(toolQuery());

function useLtiMutation<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.ltiPlatforms() }),
  });
}

export const useAddPlatform = () =>
  useLtiMutation((body: PlatformBody) => answer(api.admin.lti.platforms.$post({ json: body })));
export const useRemovePlatform = () =>
  useLtiMutation((id: string) => answer(api.admin.lti.platforms[':id'].$delete({ param: { id } })));
/** A one-time registration URL for LTI Dynamic Registration (valid one hour). */
export const useRegistrationUrl = () =>
  useMutation({ mutationFn: () => answer(api.admin.lti['registration-url'].$post()) });
