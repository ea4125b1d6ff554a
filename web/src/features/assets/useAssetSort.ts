import { useState } from 'react';
import type { SortDirection } from '../../ui/DataTable';
import type { AssetView } from './AssetBrowser';

/** The local storage key of the asset manager's sort (spec 2 §9). */
export const ASSET_SORT_KEY = 'portalwright.asset-manager.sort';

export interface AssetSort {
  column: string;
  direction: SortDirection;
}

const DEFAULT_SORT: AssetSort = { column: 'name', direction: 'asc' };

function readSort(): AssetSort {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(ASSET_SORT_KEY) ?? 'null') as Partial<AssetSort> | null;
    if (parsed && typeof parsed.column === 'string' && (parsed.direction === 'asc' || parsed.direction === 'desc'))
      return { column: parsed.column, direction: parsed.direction };
  } catch {
    // An unreadable value: the default.
  }
  return DEFAULT_SORT;
}

/** The grid's and list's sort, remembered across visits in local storage. */
export function useAssetSort(): [AssetSort, (sort: AssetSort) => void] {
  const [sort, setSort] = useState(readSort);
  const save = (next: AssetSort) => {
    setSort(next);
    try {
      window.localStorage.setItem(ASSET_SORT_KEY, JSON.stringify(next));
    } catch {
      // Storage full or blocked: the sort still applies for this visit.
    }
  };
  return [sort, save];
}

/** The local storage key of the asset manager's grid or list choice (kept like the sort). */
export const ASSET_VIEW_KEY = 'portalwright.asset-manager.view';

/** The grid or list view, remembered across visits in local storage like the sort. */
export function useAssetView(): [AssetView, (view: AssetView) => void] {
  const [view, setView] = useState<AssetView>(() => {
    try {
      return window.localStorage.getItem(ASSET_VIEW_KEY) === 'list' ? 'list' : 'grid';
    } catch {
      return 'grid';
    }
  });
  const save = (next: AssetView) => {
    setView(next);
    try {
      window.localStorage.setItem(ASSET_VIEW_KEY, next);
    } catch {
      // Storage full or blocked: the view still applies for this visit.
    }
  };
  return [view, save];
}
