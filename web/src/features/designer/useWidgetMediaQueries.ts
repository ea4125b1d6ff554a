import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { isSafeName, readWidgetInstance } from './designerApi';
import { instanceQueryList, widgetMediaQueries } from './model';
import type { RegisteredShortCode } from './protocol';
import { designerWidgetKey } from './PropertyPanel';

/**
 * The media queries the settings offer: the widgets' shown in the frame and those of their
 * instances (read and cached for the property editor).
 */
export function useWidgetMediaQueries(domain: string, portal: string, shortCodes: Record<string, RegisteredShortCode>) {
  const shownIds = useMemo(() => Object.keys(shortCodes).filter(isSafeName).sort(), [shortCodes]);
  const instances = useQueries({
    queries: shownIds.map((id) => ({
      queryKey: designerWidgetKey(domain, portal, id),
      queryFn: () => readWidgetInstance(domain, portal, id),
      staleTime: Infinity,
      retry: false,
    })),
  });
  const instanceQueries = instanceQueryList(instances.map((q) => q.data?.instance.mediaQueries));
  return useMemo(() => widgetMediaQueries(shortCodes, instanceQueries), [shortCodes, instanceQueries]);
}
