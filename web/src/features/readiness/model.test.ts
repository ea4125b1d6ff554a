import { describe, expect, it } from 'vitest';
import type { Finding } from '../../api/readiness';
import {
  ALL,
  bytesToMb,
  countBySeverity,
  filterFindings,
  findingLink,
  groupFindings,
  languagesOf,
  locationOf,
  mbToBytes,
  pageFiles,
  pageIdOf,
  type LinkContext,
} from './model';
import { ignoreSchema, settingsSchema } from './schemas';

let n = 0;
const finding = (fields: Partial<Finding>): Finding => ({
  id: `f${++n}`,
  rule: 'asset.missing',
  severity: 'error',
  path: 'pages/home.html',
  message: 'Missing',
  ...fields,
});

const link = finding({ rule: 'link.page-missing', path: 'pages/home.html', line: 12, target: 'no-such-page' });
const alt = finding({ rule: 'page.img-alt', severity: 'warning', path: 'pages/about.html', line: 3 });
const placeholder = finding({
  rule: 'translation.placeholder',
  severity: 'error',
  path: 'translations/fr_FR.json',
  key: 'TXT_HELLO',
  language: 'fr_FR',
});
const missingDe = finding({
  rule: 'translation.missing',
  severity: 'warning',
  path: 'translations/de_DE.json',
  key: 'TXT_BYE',
  language: 'de_DE',
});
const unused = finding({
  rule: 'translation.unused',
  severity: 'info',
  path: 'translations/en_GB.json',
  key: 'TXT_OLD',
});
const schema = finding({
  rule: 'content.schema',
  path: 'widgets/database/news.json',
  pointer: '/items/0/link',
  line: 7,
});
const css = finding({ rule: 'asset.missing', path: 'assets/css/site.css', line: 40, target: 'img/bg.png' });
const size = finding({ rule: 'size.budget', path: '', message: 'Over budget' });
const all = [link, alt, placeholder, missingDe, unused, schema, css, size];

describe('counts and filters', () => {
  it('counts per severity', () => {
    expect(countBySeverity(all)).toEqual({ error: 5, warning: 2, info: 1 });
  });

  it('lists the languages the findings name', () => {
    expect(languagesOf(all)).toEqual(['de_DE', 'fr_FR']);
  });

  it('filters by severity and by language, keeping findings of no language under any language', () => {
    expect(filterFindings(all, { severity: 'warning', language: ALL })).toEqual([alt, missingDe]);
    const fr = filterFindings(all, { severity: ALL, language: 'fr_FR' });
    expect(fr).toContain(placeholder);
    expect(fr).not.toContain(missingDe);
    expect(fr).toContain(link);
    expect(filterFindings(all, { severity: 'error', language: 'de_DE' })).not.toContain(placeholder);
  });
});

describe('grouping', () => {
  it('groups by rule in the rules’ order, groups with errors first, findings by severity then place', () => {
    const groups = groupFindings(all, 'rule');
    expect(groups.map((g) => g.id)).toEqual([
      'link.page-missing',
      'asset.missing',
      'translation.placeholder',
      'content.schema',
      'size.budget',
      'translation.missing',
      'page.img-alt',
      'translation.unused',
    ]);
    expect(groups[0].label).toBe('Links to missing pages');
    expect(groups[1].counts).toEqual({ error: 1, warning: 0, info: 0 });
  });

  it('groups by file: paths in order, the whole portal last among equals', () => {
    const groups = groupFindings(all, 'file');
    expect(groups.map((g) => g.id)).toEqual([
      'assets/css/site.css',
      'pages/home.html',
      'translations/fr_FR.json',
      'widgets/database/news.json',
      '',
      'pages/about.html',
      'translations/de_DE.json',
      'translations/en_GB.json',
    ]);
    expect(groups[4].label).toBe('The whole portal');
  });

  it('sorts a group’s findings by severity, then line', () => {
    const a = finding({ path: 'x.html', line: 9, severity: 'warning' });
    const b = finding({ path: 'x.html', line: 20 });
    const c = finding({ path: 'x.html', line: 2 });
    expect(groupFindings([a, b, c], 'file')[0].findings).toEqual([c, b, a]);
  });

  it('names unknown rules by id', () => {
    expect(groupFindings([finding({ rule: 'new.rule' })], 'rule')[0].label).toBe('new.rule');
  });
});

describe('locationOf', () => {
  it('says path:line, the key or the pointer', () => {
    expect(locationOf(link)).toBe('pages/home.html:12');
    expect(locationOf(placeholder)).toBe('translations/fr_FR.json · TXT_HELLO');
    expect(locationOf(schema)).toBe('widgets/database/news.json:7 · /items/0/link');
    expect(locationOf(size)).toBe('—');
  });
});

describe('pages', () => {
  const sitemap = {
    id: 'master-page',
    isMaster: true,
    url: '/index.html',
    children: [
      { id: 'home', url: '/pages/home.html' },
      { id: 'weather', url: '/pages/forecast.html?x=1', children: [{ id: 'deep', url: 'pages/deep.html' }] },
    ],
  };

  it('maps page files to page ids from the sitemap, the master page and the convention', () => {
    const pages = pageFiles(sitemap);
    expect(pages.get('pages/forecast.html')).toBe('weather');
    expect(pages.get('pages/deep.html')).toBe('deep');
    expect(pageIdOf('index.html', pages)).toBe('master-page');
    expect(pageIdOf('/pages/forecast.html', pages)).toBe('weather');
    expect(pageIdOf('pages/other.html')).toBe('other');
    expect(pageIdOf('assets/a.html')).toBeNull();
  });
});

describe('findingLink', () => {
  const ctx: LinkContext = {
    domain: 1,
    portal: 2,
    branch: 'feature/x',
    language: 'en_GB',
    pageEditor: true,
    translationManager: true,
    pages: new Map([['pages/forecast.html', 'weather']]),
  };
  const base = '/domain/1/portal/2/branch/feature:x/en_GB';

  it('opens a translation key in the Translation Manager with its language', () => {
    expect(findingLink(placeholder, ctx)).toBe(`${base}/translations?key=TXT_HELLO&language=fr_FR`);
    expect(findingLink(unused, ctx)).toBe(`${base}/translations?key=TXT_OLD`);
  });

  it('opens an unknown key where it is used', () => {
    const unknown = finding({ rule: 'translation.unknown-key', path: 'pages/home.html', line: 4, key: 'TXT_NOPE' });
    expect(findingLink(unknown, ctx)).toBe(`${base}/pages/home/source-mode?line=4`);
  });

  it('opens a page file in source mode at the line; index.html is the master page', () => {
    expect(findingLink(link, ctx)).toBe(`${base}/pages/home/source-mode?line=12`);
    expect(findingLink(finding({ path: 'index.html', line: 5 }), ctx)).toBe(
      `${base}/pages/master-page/source-mode?line=5`,
    );
    expect(findingLink(finding({ path: 'pages/forecast.html' }), ctx)).toBe(`${base}/pages/weather/source-mode`);
  });

  it('opens JSON with a pointer in the File Explorer at the pointer, and at the line for the source editor', () => {
    expect(findingLink(schema, ctx)).toBe(
      `${base}/file-explorer?path=%2Fwidgets%2Fdatabase&open=%2Fwidgets%2Fdatabase%2Fnews.json&pointer=%2Fitems%2F0%2Flink&line=7`,
    );
  });

  it('opens any other file in the File Explorer at the line', () => {
    expect(findingLink(css, ctx)).toBe(
      `${base}/file-explorer?path=%2Fassets%2Fcss&open=%2Fassets%2Fcss%2Fsite.css&line=40`,
    );
    expect(findingLink(finding({ path: 'portal.json', line: 0 }), ctx)).toBe(
      `${base}/file-explorer?open=%2Fportal.json`,
    );
  });

  it('falls back to files where the portal has no page editor or Translation Manager', () => {
    const plain = { ...ctx, pageEditor: false, translationManager: false };
    expect(findingLink(link, plain)).toBe(`${base}/file-explorer?path=%2Fpages&open=%2Fpages%2Fhome.html&line=12`);
    expect(findingLink(placeholder, plain)).toBe(
      `${base}/file-explorer?path=%2Ftranslations&open=%2Ftranslations%2Ffr_FR.json`,
    );
  });

  it('opens the Whitelist screen for a finding about the whitelist itself', () => {
    const wl = finding({ rule: 'whitelist.not-allowed', severity: 'info', path: 'whitelist.json' });
    expect(findingLink(wl, { ...ctx, whitelistScreen: true })).toBe(`${base}/whitelist`);
    expect(findingLink(wl, ctx)).toBe(`${base}/file-explorer?open=%2Fwhitelist.json`);
    const inPage = finding({ rule: 'whitelist.not-allowed', path: 'pages/home.html', line: 8 });
    expect(findingLink(inPage, { ...ctx, whitelistScreen: true })).toBe(`${base}/pages/home/source-mode?line=8`);
  });

  it('has no link for a finding about the whole portal', () => {
    expect(findingLink(size, ctx)).toBeNull();
  });

  it('reads back as the query the editors honour', () => {
    const url = new URL(`http://x${findingLink(schema, ctx)!}`);
    expect(url.searchParams.get('open')).toBe('/widgets/database/news.json');
    expect(url.searchParams.get('pointer')).toBe('/items/0/link');
    expect(url.searchParams.get('path')).toBe('/widgets/database');
  });
});

describe('forms', () => {
  it('needs an ignore reason of at most 500 characters', () => {
    expect(ignoreSchema.safeParse({ reason: ' ' }).success).toBe(false);
    expect(ignoreSchema.safeParse({ reason: 'x'.repeat(501) }).success).toBe(false);
    expect(ignoreSchema.safeParse({ reason: 'Known: fixed upstream' }).success).toBe(true);
  });

  it('checks budget rows and the size', () => {
    const ok = { gate: true, budgets: [{ pattern: 'TXT_SEAT_*', maxChars: '40' }], sizeMb: '250' };
    expect(settingsSchema.safeParse(ok).success).toBe(true);
    expect(settingsSchema.safeParse({ ...ok, sizeMb: '' }).success).toBe(true);
    expect(settingsSchema.safeParse({ ...ok, sizeMb: 'big' }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...ok, budgets: [{ pattern: '', maxChars: '40' }] }).success).toBe(false);
    expect(settingsSchema.safeParse({ ...ok, budgets: [{ pattern: 'TXT_*', maxChars: '0' }] }).success).toBe(false);
  });

  it('turns megabytes into bytes and back', () => {
    expect(mbToBytes('1.5')).toBe(1572864);
    expect(mbToBytes('')).toBe(0);
    expect(bytesToMb(1572864)).toBe('1.5');
    expect(bytesToMb(0)).toBe('');
  });
});
