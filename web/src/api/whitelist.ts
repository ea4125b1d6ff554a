/**
 * The portal's whitelist (issue 14; spec 3 §2 "Whitelist screen", §3 "Whitelist entry", §5, §7
 * "Whitelist"): `whitelist/{domainId}/{portalId}/get-whitelist | save-whitelist | check-portal`.
 *
 * The whitelist is `whitelist.json` of the caller's workspace (versioned per branch). A save
 * sends the version it was read at (`baseVersion`); a stale one is refused with 409
 * FILE_CHANGED (`isFileChanged`) and nothing is written. whitelist_read to view and check,
 * whitelist_write to save. Query keys live under the workspace prefix, so Reload Now, reverts,
 * Reset and branch switches refresh them.
 */
import { api, isFileChanged } from './client';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';

export { isFileChanged };

export type WhitelistEntry = gen.WhitelistEntry;

export type Whitelist = gen.WhitelistWhitelist;

export type SaveWhitelistRequest = gen.WhitelistSaveRequest;

export type UrlUsage = gen.WhitelistUsage;

export type CheckedUrl = gen.WhitelistCheckedURL;

export type PortalCheck = gen.WhitelistCheck;

/** The server's limits (docs/api.md "Whitelist"). */
export const MAX_WHITELIST_ENTRIES = 2000;
export const MAX_WHITELIST_URL_LENGTH = 2048;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `whitelist/${seg(d)}/${seg(p)}`;

export const whitelistKeys = {
  all: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'whitelist'] as const,
  list: (d: Id, p: Id) => [...whitelistKeys.all(d, p), 'list'] as const,
  check: (d: Id, p: Id) => [...whitelistKeys.all(d, p), 'check'] as const,
};

/** The whitelist of the caller's workspace with its version. */
export const getWhitelist = (d: Id, p: Id) => api.get<Whitelist>(`${base(d, p)}/get-whitelist`, { cache: 'no-store' });

/** Saves the whole whitelist based on `baseVersion`; answers it as saved (trimmed, without duplicates). */
export const saveWhitelist = (d: Id, p: Id, body: SaveWhitelistRequest) =>
  api.put<Whitelist>(`${base(d, p)}/save-whitelist`, body);

/** Every external URL of the caller's workspace, compared with the whitelist. */
export const checkPortal = (d: Id, p: Id) => api.get<PortalCheck>(`${base(d, p)}/check-portal`, { cache: 'no-store' });

/**
 * scheme://host[:port] of an http(s) or protocol-relative URL (https: assumed), lower-cased;
 * null when it has none. 'Add to whitelist' adds it.
 */
export function urlOrigin(url: string): string | null {
  const full = url.startsWith('//') ? `https:${url}` : url;
  try {
    const parsed = new URL(full);
    if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.host) return null;
    return `${parsed.protocol}//${parsed.host}`.toLowerCase();
  } catch {
    return null;
  }
}
