import { INACTIVE_GROUP, type Category, type Portal } from '../../../api/portal';

export type PortalSort = 'alphabetical' | 'lastModified';

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });
const byLastModified = (a: Portal, b: Portal) =>
  (Date.parse(b.lastModified) || 0) - (Date.parse(a.lastModified) || 0) || byName(a, b);

export const isInactivePortal = (p: Portal) => p.deactivated || p.status.toLowerCase() !== 'active';

/**
 * The Select Portal tree: categories by name ('Inactive Portals' last), each with its portals
 * sorted alphabetically or by last modification (newest first); empty categories dropped.
 */
export function portalTree(categories: Category[], sort: PortalSort): Category[] {
  return categories
    .filter((c) => c.children.length > 0)
    .map((c) => ({ ...c, children: [...c.children].sort(sort === 'alphabetical' ? byName : byLastModified) }))
    .sort((a, b) => {
      if (a.name === INACTIVE_GROUP) return 1;
      if (b.name === INACTIVE_GROUP) return -1;
      return byName(a, b);
    });
}
