/**
 * Microsite links (spec 3 §7 "Microsite"; docs/api.md): the domain's microsite portals, the
 * ones linked into a portal, link and unlink (permission microsite:l).
 */
import { api } from './client';
import type { Id } from './portal';
import type * as gen from './types.gen';

export type Microsite = gen.PortalMicrosite;

const seg = (v: Id) => encodeURIComponent(String(v));

export const micrositesApi = {
  /** Every microsite portal of the domain. */
  all: (d: Id) => api.get<Microsite[]>(`microsite/${seg(d)}/microsite`),
  /** The microsites linked into portal `p`. */
  linked: (d: Id, p: Id) => api.get<Microsite[]>(`microsite/${seg(d)}/${seg(p)}/microsite`),
  link: (d: Id, p: Id, microsites: number[]) =>
    api.put<unknown>(`microsite/${seg(d)}/microsite`, { portalId: Number(p), microsites }),
  unlink: (d: Id, p: Id, microsites: number[]) =>
    api.put<unknown>(`microsite/${seg(d)}/microsite/unlink`, { portalId: Number(p), microsites }),
};

export const micrositeKeys = {
  all: (d: Id) => ['microsites', String(d)] as const,
  /** Links are portal metadata, not workspace files: not under portalKeys.workspace. */
  linked: (d: Id, p: Id) => ['microsites', String(d), 'linked', String(p)] as const,
};
