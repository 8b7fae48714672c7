import { answer, api } from '@api/client';
import { accountKeys } from '@api/query-keys';
import type { AppInfoJson } from '@contract/app';
import { t } from '@lib/i18n';
import { queryOptions, useQuery } from '@tanstack/react-query';

export type AppInfo = AppInfoJson;

/** What the server says about itself (PUBLIC_URL, its LAN address): fetched once per visit. */
export const appInfoQuery = () =>
  queryOptions({
    queryKey: accountKeys.appInfo(),
    queryFn: () => answer(api.app.$get()),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useAppInfo = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...appInfoQuery(), enabled });

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The address that others should open: PUBLIC_URL when the server has one; otherwise the address in the browser,
 * unless that is the teacher's own machine (localhost), which no phone can open: then the server's LAN address if
 * it knows one. `unreachable` says when the answer is one that phones cannot open, or a guess.
 */
export function shareOrigin(info: AppInfo | undefined, location: Pick<Location, 'origin' | 'hostname'>) {
  if (info?.publicUrl) return { origin: info.publicUrl, warning: null };
  if (!LOOPBACK_HOSTS.has(location.hostname)) return { origin: location.origin, warning: null };
  if (info?.lanUrl) {
    return {
      origin: info.lanUrl,
      warning: t('classes.share.lanWarning', { host: location.hostname }),
    };
  }
  return {
    origin: location.origin,
    warning: t('classes.share.localWarning', { host: location.hostname }),
  };
}
