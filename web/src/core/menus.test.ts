import { describe, expect, it } from 'vitest';
import {
  ADMIN_MENU,
  branchSegment,
  branchSelectLabel,
  DOMAIN_MENU,
  domainSelectLabel,
  isAdminGroupVisible,
  isManageDomainVisible,
  isManagePortalVisible,
  isPortalGroupVisible,
  isSelectBranchVisible,
  isSelectLanguageVisible,
  isSelectPageVisible,
  isSelectPortalVisible,
  languageSelectLabel,
  pageSelectLabel,
  PORTAL_MENU,
  portalGroupLabel,
  SELECTOR_IDS,
  visibleEntries,
  visiblePortalSelectors,
  type NavContext,
  type NavPortal,
} from './menus';

/** Everything registered: rules are tested on their own. */
const ALL = new Set([
  ...[...DOMAIN_MENU, ...PORTAL_MENU, ...ADMIN_MENU].map((e) => e.id),
  ...Object.values(SELECTOR_IDS),
]);

const domain = { id: 4, name: 'Airline A' };
const fullPortal: NavPortal = { id: 9, name: 'Crew', supportLevel: 'FULL', engineType: 'PORTAL_ENGINE', scope: 'full' };
const PORTAL_PERMISSIONS = [
  'page_read',
  'asset:r',
  'code:r',
  'portal_settings_read',
  'loadable:c',
  'loadable:r',
  'whitelist:r',
  'translation:r',
  'branch:r',
];

function ctx(overrides: Partial<NavContext> = {}): NavContext {
  return {
    isAdmin: false,
    writableDomainCount: 0,
    domain: null,
    portal: null,
    branch: null,
    language: null,
    page: null,
    permissions: [],
    available: ALL,
    ...overrides,
  };
}

const inPortal = (portal: Partial<NavPortal>, extra: Partial<NavContext> = {}) =>
  ctx({ domain, portal: { ...fullPortal, ...portal }, permissions: PORTAL_PERMISSIONS, ...extra });

const labels = (menu: typeof DOMAIN_MENU, c: NavContext) => visibleEntries(menu, c).map((e) => e.label);

describe('Domain group', () => {
  it("Select Domain shows the current domain name or 'No domain selected'", () => {
    expect(domainSelectLabel(ctx())).toBe('No domain selected');
    expect(domainSelectLabel(ctx({ domain }))).toBe('Airline A');
  });

  it('Manage Domain is visible only with a selected domain', () => {
    expect(isManageDomainVisible(ctx({ isAdmin: true }))).toBe(false);
    expect(isManageDomainVisible(ctx({ isAdmin: true, domain }))).toBe(true);
  });

  it('Manage Domain entries carry a permission and are hidden without it (Email needs domain_user_create)', () => {
    expect(labels(DOMAIN_MENU, ctx({ domain }))).toEqual(['Dashboard']);
    expect(labels(DOMAIN_MENU, ctx({ domain, permissions: ['domain_user_create'] }))).toEqual(['Dashboard', 'Email']);
    expect(labels(DOMAIN_MENU, ctx({ domain, permissions: ['template:r', 'portal:r', 'domain_user_create'] }))).toEqual(
      ['Dashboard', 'Manage Templates', 'Manage Portals', 'Email'],
    );
    expect(labels(DOMAIN_MENU, ctx({ domain, isAdmin: true }))).toHaveLength(4);
  });
});

describe('Portal group', () => {
  it('is hidden while no domain is selected', () => {
    expect(isPortalGroupVisible(ctx())).toBe(false);
    expect(isPortalGroupVisible(ctx({ domain }))).toBe(true);
  });

  it("is labelled 'Limited Portal' for limited portals, a missing support level counting as limited", () => {
    expect(portalGroupLabel(ctx({ domain }))).toBe('Portal');
    expect(portalGroupLabel(inPortal({}))).toBe('Portal');
    expect(portalGroupLabel(inPortal({ supportLevel: 'LIMITED' }))).toBe('Limited Portal');
    expect(portalGroupLabel(inPortal({ supportLevel: undefined }))).toBe('Limited Portal');
  });

  it('shows placeholders for missing branch, language and page', () => {
    expect(branchSelectLabel(ctx())).toBe('No branch Selected');
    expect(languageSelectLabel(ctx())).toBe('No language selected');
    expect(pageSelectLabel(ctx())).toBe('No page selected');
    expect(branchSelectLabel(ctx({ branch: 'feature/x' }))).toBe('feature/x');
  });

  it('Select Portal needs a selected domain; Select Branch a selected portal', () => {
    expect(isSelectPortalVisible(ctx())).toBe(false);
    expect(isSelectPortalVisible(ctx({ domain }))).toBe(true);
    expect(isSelectBranchVisible(ctx({ domain }))).toBe(false);
    expect(isSelectBranchVisible(inPortal({}))).toBe(true);
  });

  it('Select Language is hidden with no portal, a limited portal, a UNIVERSAL engine or captive scope', () => {
    expect(isSelectLanguageVisible(inPortal({}))).toBe(true);
    expect(isSelectLanguageVisible(ctx({ domain }))).toBe(false);
    expect(isSelectLanguageVisible(inPortal({ supportLevel: 'LIMITED' }))).toBe(false);
    expect(isSelectLanguageVisible(inPortal({ engineType: 'UNIVERSAL' }))).toBe(false);
    expect(isSelectLanguageVisible(inPortal({ scope: 'captive' }))).toBe(false);
    expect(isSelectLanguageVisible(inPortal({ scope: 'microsite' }))).toBe(true);
  });

  it('Select Page is hidden for a limited portal or captive scope and needs page read permission', () => {
    expect(isSelectPageVisible(inPortal({}))).toBe(true);
    expect(isSelectPageVisible(inPortal({ supportLevel: 'LIMITED' }))).toBe(false);
    expect(isSelectPageVisible(inPortal({ scope: 'captive' }))).toBe(false);
    expect(isSelectPageVisible(inPortal({ engineType: 'UNIVERSAL' }))).toBe(false);
    expect(isSelectPageVisible(inPortal({}, { permissions: [] }))).toBe(false);
    expect(isSelectPageVisible(inPortal({}, { permissions: ['page:r'] }))).toBe(true);
    expect(isSelectPageVisible(inPortal({}, { permissions: [], isAdmin: true }))).toBe(true);
  });

  it('lists the visible selectors in order', () => {
    expect(visiblePortalSelectors(inPortal({}))).toEqual(['portal', 'branch', 'language', 'page']);
    expect(visiblePortalSelectors(inPortal({ supportLevel: 'LIMITED' }))).toEqual(['portal', 'branch']);
  });
});

describe('Manage Portal menu', () => {
  it('is hidden with no current portal', () => {
    expect(isManagePortalVisible(ctx({ domain, isAdmin: true }))).toBe(false);
    expect(isManagePortalVisible(inPortal({}))).toBe(true);
  });

  it('hides Create Loadable and Manage Loadables unless the engine type is UNIVERSAL', () => {
    expect(labels(PORTAL_MENU, inPortal({}))).not.toContain('Create Loadable');
    expect(labels(PORTAL_MENU, inPortal({}))).not.toContain('Manage Loadables');
    expect(labels(PORTAL_MENU, inPortal({ engineType: 'UNIVERSAL' }))).toEqual(
      expect.arrayContaining(['Create Loadable', 'Manage Loadables']),
    );
  });

  it('hides Whitelist when the portal is limited, captive or UNIVERSAL', () => {
    expect(labels(PORTAL_MENU, inPortal({}))).toContain('Whitelist');
    expect(labels(PORTAL_MENU, inPortal({ supportLevel: 'LIMITED' }))).not.toContain('Whitelist');
    expect(labels(PORTAL_MENU, inPortal({ scope: 'captive' }))).not.toContain('Whitelist');
    expect(labels(PORTAL_MENU, inPortal({ engineType: 'UNIVERSAL' }))).not.toContain('Whitelist');
  });

  it('hides Manage Translation when limited, UNIVERSAL or captive', () => {
    expect(labels(PORTAL_MENU, inPortal({}))).toContain('Manage Translation');
    expect(labels(PORTAL_MENU, inPortal({ supportLevel: 'LIMITED' }))).not.toContain('Manage Translation');
    expect(labels(PORTAL_MENU, inPortal({ engineType: 'UNIVERSAL' }))).not.toContain('Manage Translation');
    expect(labels(PORTAL_MENU, inPortal({ scope: 'captive' }))).not.toContain('Manage Translation');
  });

  it('hides Page Manager when limited or captive', () => {
    expect(labels(PORTAL_MENU, inPortal({}))).toContain('Page Manager');
    expect(labels(PORTAL_MENU, inPortal({ supportLevel: 'LIMITED' }))).not.toContain('Page Manager');
    expect(labels(PORTAL_MENU, inPortal({ scope: 'captive' }))).not.toContain('Page Manager');
  });

  it('shows the full menu of a full portal engine portal in order', () => {
    expect(labels(PORTAL_MENU, inPortal({}))).toEqual([
      'Dashboard',
      'File Explorer',
      'Portal Settings',
      'Whitelist',
      'Manage Translation',
      'Page Manager',
      'Branches',
      'Readiness',
    ]);
  });

  it('shows Readiness for every portal whose files the user may read', () => {
    for (const portal of [
      {},
      { supportLevel: 'LIMITED' as const },
      { engineType: 'UNIVERSAL' as const },
      { scope: 'captive' as const },
    ])
      expect(labels(PORTAL_MENU, inPortal(portal))).toContain('Readiness');
    expect(labels(PORTAL_MENU, inPortal({}, { permissions: ['branch:r'] }))).not.toContain('Readiness');
  });

  it('builds portal routes with the branch slash replaced by a colon', () => {
    const c = inPortal({}, { branch: 'feature/new', language: 'de_DE' });
    const dashboard = PORTAL_MENU.find((e) => e.id === 'portal.dashboard')!;
    expect(dashboard.path(c)).toBe('/domain/4/portal/9/branch/feature:new/de_DE/dashboard');
    expect(branchSegment('a/b/c')).toBe('a:b:c');
  });
});

describe('Administration group', () => {
  const admin = (extra: Partial<NavContext> = {}) => ctx({ isAdmin: true, ...extra });

  it('is hidden for non-admins, whatever domains they can write to', () => {
    expect(isAdminGroupVisible(ctx({ writableDomainCount: 3 }))).toBe(false);
    expect(visibleEntries(ADMIN_MENU, ctx())).toEqual([]);
    expect(visibleEntries(ADMIN_MENU, ctx({ writableDomainCount: 3, domain, permissions: ['domain_write'] }))).toEqual(
      [],
    );
  });

  it('is shown to admins with or without writable domains', () => {
    expect(isAdminGroupVisible(admin({ writableDomainCount: 0 }))).toBe(true);
    expect(isAdminGroupVisible(admin({ writableDomainCount: 2 }))).toBe(true);
  });

  it('shows every entry to admins, in order', () => {
    const all = ['Domains', 'Users', 'Admin Search', 'System Preferences', 'Mail Outbox', 'Audit History'];
    expect(labels(ADMIN_MENU, admin({ writableDomainCount: 0 }))).toEqual(all);
    expect(labels(ADMIN_MENU, admin({ writableDomainCount: 2 }))).toEqual(all);
  });

  it('Domains opens admin/domains/-1; the screen picks the first domain when there is one', () => {
    const entry = (id: string) => ADMIN_MENU.find((e) => e.id === id)!;
    expect(entry('admin.domains').path(admin())).toBe('/admin/domains/-1');
    expect(entry('admin.users').path(admin())).toBe('/admin/users/-1');
    expect(entry('admin.preferences').path(admin())).toBe('/admin/preferences');
    expect(entry('admin.outbox').path(admin())).toBe('/admin/outbox');
    expect(entry('admin.history').path(admin())).toBe('/admin/history');
  });

  it('hides Admin Search while its route is not registered', () => {
    const registered = new Set(ADMIN_MENU.map((e) => e.id).filter((id) => id !== 'admin.search'));
    expect(labels(ADMIN_MENU, admin({ available: registered }))).not.toContain('Admin Search');
  });
});

describe('registration', () => {
  const none = new Set<string>();

  it('never shows an entry whose route or selector is not registered', () => {
    const admin = ctx({ isAdmin: true, domain, portal: fullPortal, available: none });
    expect(visibleEntries(DOMAIN_MENU, admin)).toEqual([]);
    expect(visibleEntries(PORTAL_MENU, admin)).toEqual([]);
    expect(isManageDomainVisible(admin)).toBe(false);
    expect(isManagePortalVisible(admin)).toBe(false);
    expect(isAdminGroupVisible(admin)).toBe(false);
    expect(isPortalGroupVisible(admin)).toBe(false);
  });

  it('shows exactly the registered entries', () => {
    const c = ctx({ isAdmin: true, domain, available: new Set(['domain.email', 'admin.users']) });
    expect(labels(DOMAIN_MENU, c)).toEqual(['Email']);
    expect(labels(ADMIN_MENU, c)).toEqual(['Users']);
  });
});
