/**
 * Query keys this feature refreshes. They mirror the keys of the modules that own the queries
 * (features/portal/queries.ts portalKeys, features/portals-admin/shared.tsx keys,
 * app/shell/BannerSlot.tsx PREFERENCES_QUERY_KEY); kept here as literals so this folder does
 * not depend on files other engineers are changing.
 */
type Id = string | number;

export const realtimeKeys = {
  /** Everything of a portal's workspace: ['portal', d, p, …] (local changes, commits, ws-changes, references). */
  workspace: (d: Id, p: Id) => ['portal', String(d), String(p)] as const,
  localChanges: (d: Id, p: Id) => ['portal', String(d), String(p), 'local-changes'] as const,
  localCommits: (d: Id, p: Id) => ['portal', String(d), String(p), 'local-commits'] as const,
  /** Prefix of every branch's other-users list: ['portal', d, p, 'ws-changes', branch]. */
  wsChanges: (d: Id, p: Id) => ['portal', String(d), String(p), 'ws-changes'] as const,
  /** The portal selector's lists of a domain: ['portals', d, …]. */
  domainPortals: (d: Id) => ['portals', String(d)] as const,
  /** Portal management's list of a domain. */
  adminPortals: (d: Id) => ['portals-admin', String(d), 'portals'] as const,
  /** Template management's (and the create-portal dialog's) templates of a domain. */
  templates: (d: Id) => ['portals-admin', String(d), 'templates'] as const,
};

/** True for a templates query of any domain (['portals-admin', d, 'templates']). */
export const isTemplatesKey = (key: readonly unknown[]) => key[0] === 'portals-admin' && key[2] === 'templates';
