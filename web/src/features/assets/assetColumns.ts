/** The list view's sortable values, shared with the grid so both show one order. */
import { isFolder, type Asset } from '../../api/assets';
import { sortRows, type Column, type SortDirection } from '../../ui/DataTable';

export const SORT_VALUES: Record<string, (a: Asset) => string | number> = {
  name: (a) => a.name.toLowerCase(),
  createdDate: (a) => a.createdDate,
  type: (a) => a.type,
  dimensions: (a) => (a.width ?? 0) * (a.height ?? 0),
  size: (a) => a.size,
};

/** Folders first, each group in the chosen order. */
export function sortAssets(assets: readonly Asset[], column: string, direction: SortDirection): Asset[] {
  const sortValue = SORT_VALUES[column] ?? SORT_VALUES.name;
  const byColumn: Column<Asset> = { id: column, header: '', cell: () => null, sortValue };
  const sorted = sortRows(assets, byColumn, direction);
  return [...sorted.filter(isFolder), ...sorted.filter((a) => !isFolder(a))];
}
