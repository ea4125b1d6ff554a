/**
 * The Readiness screen's pure parts (issue 29): counts, filters, grouping by rule or by file,
 * where a finding is (path:line, key, pointer) and where its Open lands (findingLink).
 */
import type { Id } from '../../api/portal';
import { RULES, type Finding, type ReadinessPerson, type Severity } from '../../api/readiness';
import type { SitemapPage } from '../../api/sitemap';
import { paths } from '../../core/paths';
import { plural } from '../../lib/format';

export const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

export const SEVERITY_LABELS: Record<Severity, string> = { error: 'Errors', warning: 'Warnings', info: 'Infos' };
export const SEVERITY_LABEL: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** A rule's name for people (the id where a newer server names a rule this app does not know). */
export const RULE_LABELS: Record<string, string> = {
  'link.page-missing': 'Links to missing pages',
  'page.missing-file': 'Pages without their file',
  'asset.missing': 'Missing files',
  'widget.missing': 'Missing widgets',
  'translation.missing': 'Missing translations',
  'translation.unknown-key': 'Unknown translation keys',
  'translation.unused': 'Unused translation keys',
  'translation.placeholder': 'Placeholders that differ',
  'translation.markup': 'Markup that differs',
  'translation.length': 'Texts over their length budget',
  'page.img-alt': 'Images without alt text',
  'content.syntax': 'JSON that does not parse',
  'content.schema': 'Content that breaks its schema',
  'whitelist.not-allowed': 'URLs the whitelist does not allow',
  'size.budget': 'Portal over its size budget',
};
export const ruleLabel = (rule: string) => RULE_LABELS[rule] ?? rule;

export type Counts = Record<Severity, number>;

export function countBySeverity(findings: readonly Finding[]): Counts {
  const counts: Counts = { error: 0, warning: 0, info: 0 };
  for (const f of findings) if (f.severity in counts) counts[f.severity]++;
  return counts;
}

/** '2 errors, 1 warning' ('' when there is nothing). */
export const countsText = (c: Counts) =>
  [c.error && plural(c.error, 'error'), c.warning && plural(c.warning, 'warning'), c.info && plural(c.info, 'info')]
    .filter(Boolean)
    .join(', ');

export type GroupBy = 'rule' | 'file';
export const ALL = 'all';

export interface Filters {
  severity: Severity | typeof ALL;
  /** A language code, or 'all'. Findings without a language are kept under any language. */
  language: string;
}

export const NO_FILTERS: Filters = { severity: ALL, language: ALL };

/** The languages the findings name, sorted. */
export function languagesOf(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => f.language).filter((l): l is string => !!l))].sort();
}

/**
 * The findings that pass the filters. A language filter keeps the findings of that language and
 * those that belong to no language (a broken link is broken in every language).
 */
export function filterFindings(findings: readonly Finding[], filters: Filters): Finding[] {
  return findings.filter(
    (f) =>
      (filters.severity === ALL || f.severity === filters.severity) &&
      (filters.language === ALL || !f.language || f.language === filters.language),
  );
}

/** Severity first, then path, line, key and message. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) ||
    a.path.localeCompare(b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.key ?? '').localeCompare(b.key ?? '') ||
    (a.language ?? '').localeCompare(b.language ?? '') ||
    a.message.localeCompare(b.message)
  );
}

export interface FindingGroup {
  /** The rule id or the path. */
  id: string;
  label: string;
  findings: Finding[];
  counts: Counts;
}

const ruleOrder = (rule: string) => {
  const i = (RULES as readonly string[]).indexOf(rule);
  return i < 0 ? RULES.length : i;
};

/**
 * The findings in groups: by rule (the rules' order, unknown rules last by id) or by file (paths
 * in order; a finding of the whole portal, without a path, last). Groups with errors come first,
 * then those with warnings; inside a group by severity, path and line.
 */
export function groupFindings(findings: readonly Finding[], by: GroupBy): FindingGroup[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const id = by === 'rule' ? f.rule : f.path;
    const list = groups.get(id);
    if (list) list.push(f);
    else groups.set(id, [f]);
  }
  const result = [...groups].map(([id, list]): FindingGroup => ({
    id,
    label: by === 'rule' ? ruleLabel(id) : id || 'The whole portal',
    findings: [...list].sort(compareFindings),
    counts: countBySeverity(list),
  }));
  const worst = (g: FindingGroup) => (g.counts.error ? 0 : g.counts.warning ? 1 : 2);
  return result.sort(
    (a, b) =>
      worst(a) - worst(b) ||
      (by === 'rule'
        ? ruleOrder(a.id) - ruleOrder(b.id) || a.id.localeCompare(b.id)
        : (a.id === '' ? 1 : 0) - (b.id === '' ? 1 : 0) || a.id.localeCompare(b.id)),
  );
}

/** Where a finding is: 'pages/a.html:12', 'translations/fr_FR.json · TXT_X', 'x.json · /items/0'. */
export function locationOf(f: Finding): string {
  const at = f.path ? `${f.path}${f.line ? `:${f.line}` : ''}` : '';
  const parts = [at, f.key, !f.key ? f.pointer : undefined].filter(Boolean);
  return parts.join(' · ') || '—';
}

export const personName = (p: Pick<ReadinessPerson, 'firstName' | 'lastName' | 'userName'>) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ') || p.userName;

/** The id of the synthetic root of the sitemap: the master page, index.html. */
export const MASTER_PAGE_ID = 'master-page';
export const MASTER_PAGE_FILE = 'index.html';

/** Page file path (no leading slash) → page id, from the sitemap's pages' urls. */
export function pageFiles(root: SitemapPage | undefined): Map<string, string> {
  const out = new Map<string, string>([[MASTER_PAGE_FILE, MASTER_PAGE_ID]]);
  const visit = (page: SitemapPage) => {
    const url = (page.url ?? page.pageUrl ?? '').split(/[?#]/)[0].replace(/^\.?\/+/, '');
    if (url && !page.isMaster && /\.html?$/i.test(url)) out.set(url, page.id);
    for (const child of page.children ?? []) visit(child);
  };
  if (root) visit(root);
  return out;
}

/** The page id of a page file: the sitemap's, else the convention pages/<id>.html; null otherwise. */
export function pageIdOf(path: string, pages?: ReadonlyMap<string, string>): string | null {
  const clean = path.replace(/^\/+/, '');
  if (clean === MASTER_PAGE_FILE) return MASTER_PAGE_ID;
  const known = pages?.get(clean);
  if (known) return known;
  const m = /^pages\/([^/]+)\.html$/i.exec(clean);
  return m ? m[1] : null;
}

export interface LinkContext {
  domain: Id;
  portal: Id;
  branch: string;
  /** The route's language (the screens open in it). */
  language: string;
  /** Page file → page id (pageFiles of the sitemap); the convention pages/<id>.html without it. */
  pages?: ReadonlyMap<string, string>;
  /** The portal has pages in source mode (a FULL portal engine portal); else pages open as files. */
  pageEditor: boolean;
  /** The Translation Manager is there for this portal and user; else translation files open as files. */
  translationManager: boolean;
  /** The Whitelist screen is there for this portal and user (a whitelist finding opens it). */
  whitelistScreen?: boolean;
}

/** The whitelist's file: a whitelist finding about the whole whitelist names it. */
export const WHITELIST_FILE = 'whitelist.json';

/**
 * Where a finding's Open lands (docs/readiness.md "Open"), or null for a finding about the whole
 * portal (no path):
 *
 * - a translation key (except an unknown key, which is fixed where it is used): the Translation
 *   Manager at the key and the finding's language (`?key=&language=`);
 * - a whitelist finding about the whitelist itself (whitelist.json): the Whitelist screen;
 * - a page file (index.html is the master page): the page in source mode at the line (`?line=`);
 * - a JSON file with a pointer: the File Explorer with the file open at the pointer
 *   (`?path=<folder>&open=<file>&pointer=`);
 * - any other file: the File Explorer with the file open at the line (`&line=`).
 */
export function findingLink(f: Finding, ctx: LinkContext): string | null {
  const { domain, portal, branch, language } = ctx;
  if (f.key && ctx.translationManager && (f.rule !== 'translation.unknown-key' || !f.path))
    return paths.translationKey(domain, portal, branch, language, f.key, f.language || undefined);
  if (f.rule === 'whitelist.not-allowed' && f.path === WHITELIST_FILE && ctx.whitelistScreen)
    return paths.portalScreen(domain, portal, branch, language, 'whitelist');
  if (!f.path) return null;
  const pageId = ctx.pageEditor && /\.html?$/i.test(f.path) ? pageIdOf(f.path, ctx.pages) : null;
  if (pageId) return paths.pageSourceAt(domain, portal, branch, language, pageId, f.line);
  if (f.pointer !== undefined && f.pointer !== '' && /\.json$/i.test(f.path))
    return paths.fileExplorerAt(domain, portal, branch, language, f.path, { pointer: f.pointer, line: f.line });
  return paths.fileExplorerAt(domain, portal, branch, language, f.path, { line: f.line });
}

/** One row of the settings form: a length budget as typed. */
export interface BudgetRow {
  pattern: string;
  maxChars: string;
}

const BYTES_PER_MB = 1024 * 1024;

/** Bytes as the form's megabytes ('' for no budget). */
export const bytesToMb = (bytes: number) => (bytes > 0 ? String(Math.round((bytes / BYTES_PER_MB) * 100) / 100) : '');
/** The form's megabytes as bytes (0: no budget). */
export const mbToBytes = (mb: string) => (mb.trim() === '' ? 0 : Math.round(Number(mb) * BYTES_PER_MB));
