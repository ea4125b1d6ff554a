/** The asset manager's reads: a folder with its children, and the upload size limits. */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { assetApi, assetKeys } from '../../api/assets';
import { toasts } from '../../core/toastService';
import { ASSET_MESSAGES } from './messages';

/** How often the open folders' listings are read again while the tab is visible. */
export const FOLDER_REFRESH_MS = 15_000;

/** A folder of the workspace with one level of children (loaded only when `enabled`). */
export function useFolder(domain: string, portal: string, path: string, enabled = true) {
  return useQuery({
    queryKey: assetKeys.folder(domain, portal, path),
    queryFn: () => assetApi.folder(domain, portal, path),
    enabled,
    // A folder made elsewhere (another tab, the API, a build) shows up without a reload: on
    // return to the tab, and every FOLDER_REFRESH_MS while the tab is visible.
    refetchOnWindowFocus: 'always',
    refetchInterval: FOLDER_REFRESH_MS,
  });
}

/** The size limits and allowed extensions; a failed load warns once (spec 2 §8) and uploads go on unchecked. */
export function useSizeLimits() {
  const query = useQuery({
    queryKey: assetKeys.sizeLimits(),
    queryFn: assetApi.sizeLimits,
    staleTime: Infinity,
    retry: false,
  });
  const failed = query.isError;
  useEffect(() => {
    if (failed) toasts.warning(ASSET_MESSAGES.sizeLimitsFailed);
  }, [failed]);
  return query.data;
}
