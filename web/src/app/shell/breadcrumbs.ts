/**
 * Breadcrumbs (spec 1 §2.1): the root is 'Portal' when the URL contains
 * portal, 'Admin' when it contains admin, otherwise 'Domain'; then the path
 * segments.
 */
export interface BreadcrumbTrail {
  root: 'Portal' | 'Admin' | 'Domain';
  segments: string[];
}

export function breadcrumbTrail(pathname: string): BreadcrumbTrail {
  const root = pathname.includes('portal') ? 'Portal' : pathname.includes('admin') ? 'Admin' : 'Domain';
  const segments = pathname
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  return { root, segments };
}
