/**
 * Presence (issue 21; advisory, never a lock): who has a file of the portal open, viewing or
 * editing. An editor PUTs its state when it opens, 'editing' on the first change, and again every
 * 20 s; it DELETEs when it closes. Entries expire 60 s after their last PUT. The portal room
 * `portal-<id>` announces changes with title 'PRESENCE' (state 'left' when someone closed).
 */
import { api } from './client';
import { workspacePath } from './merge';
import { portalKeys, type Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type PresenceState = 'viewing' | 'editing';

export type PresenceUser = gen.EditingPerson;

export type PresenceEntry = Narrow<gen.PresenceEntry, { state: PresenceState }>;

/** The data of a PRESENCE room message. */
export interface PresenceMessage {
  portalId: Id;
  user: PresenceUser;
  path: string;
  state: PresenceState | 'left';
}

/** How often an open editor says it is still there (the server forgets an entry after 60 s). */
export const PRESENCE_HEARTBEAT_MS = 20_000;
/** An entry not heard of for this long is gone. */
export const PRESENCE_EXPIRY_MS = 60_000;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `presence/${seg(d)}/${seg(p)}`;

export const presenceApi = {
  /** Everyone's entries in the portal (the caller's own included). */
  list: (d: Id, p: Id) => api.get<PresenceEntry[]>(base(d, p)),
  put: (d: Id, p: Id, path: string, state: PresenceState) =>
    api.put<void>(base(d, p), { path: workspacePath(path), state }),
  /** `keepalive` for the call sent while the page goes away. */
  leave: (d: Id, p: Id, path: string, keepalive = false) =>
    api.delete<void>(base(d, p), { query: { path: workspacePath(path) }, keepalive }),
};

export const presenceKeys = {
  /** Not workspace content, but the portal's: kept under its workspace key (dropped with it). */
  list: (d: Id, p: Id) => [...portalKeys.workspace(d, p), 'presence'] as const,
};
