import type { Finding } from '../../api/readiness';
import type { SitemapPage } from '../../api/sitemap';
import { pagePath } from '../presence';

/** A sitemap url as a workspace path ('/pages/a.html?x=1' → 'pages/a.html'); '' for an external or empty one. */
function urlPath(url: string | undefined): string {
  const u = (url ?? '').trim();
  if (!u || /^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith('//') || u.startsWith('#')) return '';
  return u.replace(/[?#].*$/, '').replace(/^(\.\/|\/)+/, '');
}

/**
 * The readiness errors of a page (issue 29): those in its file (pages/<id>.html, index.html for
 * the master page, or the file its sitemap url names) and a missing file reported for it.
 */
export function pageErrorCount(page: SitemapPage, byPath: ReadonlyMap<string, readonly Finding[]>): number {
  const files = new Set([page.isMaster ? 'index.html' : pagePath(page.id), urlPath(page.url)].filter(Boolean));
  let count = 0;
  for (const file of files) count += (byPath.get(file) ?? []).filter((f) => f.severity === 'error').length;
  for (const f of byPath.get('sitemap.json') ?? [])
    if (f.severity === 'error' && f.rule === 'page.missing-file' && (f.target === page.id || files.has(f.target ?? '')))
      count++;
  return count;
}
