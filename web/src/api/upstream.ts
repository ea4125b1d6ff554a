/**
 * A portal's upstream (issue 15 item 1; docs/api.md "Upstream"): the git host a portal created
 * from a git URL stays connected to — fetched on open, pushed after commits, with credentials the
 * server keeps sealed and never answers (only their kind, whether there are any, and a deploy
 * key's public half). `upstream/{domainId}/{portalId}` (portal:r), `…/sync` (Sync now, portal:w),
 * `…/credentials` and `…/webhook` (portal_settings_write). Query keys live under the workspace
 * prefix, so Reload Now, commits, reverts and branch switches refresh the state.
 */
import { api } from './client';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type UpstreamState = 'IN_SYNC' | 'AHEAD' | 'BEHIND' | 'DIVERGED' | 'ERROR';
export type UpstreamAuthKind = 'NONE' | 'PASSWORD' | 'SSH_KEY';

export type UpstreamBranch = gen.HostsyncUpstreamBranch;

export type UpstreamStatus = Narrow<gen.UpstreamStatus, { state: UpstreamState | ''; authKind: UpstreamAuthKind }>;

export type CredentialsRequest =
  { kind: 'PASSWORD'; userName: string; password: string } | { kind: 'SSH_KEY' } | { kind: 'NONE' };

export type WebhookInfo = gen.UpstreamWebhookInfo;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `upstream/${seg(d)}/${seg(p)}`;

export const upstreamKeys = {
  status: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'upstream'] as const,
  webhook: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'upstream', 'webhook'] as const,
};

export const upstreamApi = {
  status: (d: Id, p: Id) => api.get<UpstreamStatus>(base(d, p), { cache: 'no-store' }),
  /** Sync now: fetch, bring the host's commits in, push what the host lacks. */
  sync: (d: Id, p: Id) => api.post<UpstreamStatus>(`${base(d, p)}/sync`, {}),
  /** Replaces the credentials; answers the state after a fetch with them. */
  setCredentials: (d: Id, p: Id, body: CredentialsRequest) =>
    api.put<UpstreamStatus>(`${base(d, p)}/credentials`, body),
  webhook: (d: Id, p: Id) => api.get<WebhookInfo>(`${base(d, p)}/webhook`, { cache: 'no-store' }),
  /** A new webhook secret (the old one stops working at once). */
  rotateWebhook: (d: Id, p: Id) => api.post<WebhookInfo>(`${base(d, p)}/webhook`, {}),
};

/** Whether the URL reaches the host over ssh (a deploy key) rather than http(s) (a password or token). */
export function isSshUrl(url: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (!m) return url.includes(':'); // scp-like git@host:path
  return ['ssh', 'git+ssh', 'ssh+git'].includes(m[1].toLowerCase());
}
