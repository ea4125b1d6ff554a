import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { assetKeys } from '../../api/assets';
import { UPLOAD_REFRESH_DEBOUNCE_MS } from './messages';

/** Refreshes the folder once uploads have been quiet for 5000 ms (spec 2 §4). */
export function useDebouncedFolderRefresh(domain: string, portal: string, path: string) {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: assetKeys.folder(domain, portal, path) }),
      UPLOAD_REFRESH_DEBOUNCE_MS,
    );
  };
}
