/**
 * Breadcrumbs (spec 1 §2.1): the root is 'Portal' when the URL contains
 * portal, 'Admin' when it contains admin, otherwise 'Domain'; then the path
 * segments, made readable: the root's own segment, the route keywords
 * (domain, portal, branch) and numeric ids are left out, a branch's colons
 * become slashes again, and kebab-case screen names become words. The ids of the
 * domain and the portal are shown by name when the selection knows them.
 */
export interface BreadcrumbTrail {
  root: 'Portal' | 'Admin' | 'Domain';
  segments: string[];
}

const KEYWORDS = new Set(['admin', 'domain', 'portal', 'branch', 'pages']);

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function label(segment: string, previous: string | undefined): string {
  if (previous === 'branch') return segment.replace(/:/g, '/');
  if (/^[a-z]+(-[a-z]+)*$/.test(segment)) {
    return segment
      .split('-')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ');
  }
  return segment;
}

/** Names of the selected domain and portal, by id (from the selection store). */
export interface TrailNames {
  domain?: { id: string | number; name: string } | null;
  portal?: { id: string | number; name: string } | null;
}

export function breadcrumbTrail(pathname: string, names: TrailNames = {}): BreadcrumbTrail {
  const root = pathname.includes('portal') ? 'Portal' : pathname.includes('admin') ? 'Admin' : 'Domain';
  const raw = pathname.split('/').filter(Boolean).map(decode);
  const segments: string[] = [];
  raw.forEach((segment, i) => {
    const named = raw[i - 1] === 'domain' ? names.domain : raw[i - 1] === 'portal' ? names.portal : null;
    if (named && String(named.id) === segment && raw[0] === 'domain') {
      segments.push(named.name);
      return;
    }
    if (KEYWORDS.has(segment) || /^-?\d+$/.test(segment)) return;
    segments.push(label(segment, raw[i - 1]));
  });
  return { root, segments };
}
