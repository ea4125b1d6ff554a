/**
 * Who has which file of a portal open (issue 21 item 5), kept live per portal: the list read with
 * GET /presence, then PRESENCE room messages. An entry not heard of for PRESENCE_EXPIRY_MS drops
 * out (the server forgets it then too).
 */
import { create } from 'zustand';
import { workspacePath } from '../../api/merge';
import {
  PRESENCE_EXPIRY_MS,
  type PresenceEntry,
  type PresenceMessage,
  type PresenceState,
  type PresenceUser,
} from '../../api/presence';

export interface SeenPresence {
  user: PresenceUser;
  path: string;
  state: PresenceState;
  /** When it was last heard of (ms). */
  seen: number;
}

interface PresenceStoreState {
  /** By portal id, then by `<userId>|<path>`. */
  byPortal: Record<string, Record<string, SeenPresence>>;
}

export const usePresenceStore = create<PresenceStoreState>(() => ({ byPortal: {} }));

const entryKey = (userId: number | string, path: string) => `${userId}|${path}`;

/** Replaces a portal's entries with the server's list. */
export function setPresenceList(portalId: string | number, entries: readonly PresenceEntry[], now = Date.now()): void {
  const next: Record<string, SeenPresence> = {};
  for (const e of entries) {
    const path = workspacePath(e.path);
    next[entryKey(e.user.id, path)] = { user: e.user, path, state: e.state, seen: now };
  }
  usePresenceStore.setState((s) => ({ byPortal: { ...s.byPortal, [String(portalId)]: next } }));
}

/** Applies one PRESENCE message ('left' removes the entry). */
export function receivePresence(portalId: string | number, message: PresenceMessage, now = Date.now()): void {
  const path = workspacePath(message.path);
  const key = entryKey(message.user.id, path);
  usePresenceStore.setState((s) => {
    const current = { ...(s.byPortal[String(portalId)] ?? {}) };
    if (message.state === 'left') delete current[key];
    else current[key] = { user: message.user, path, state: message.state, seen: now };
    return { byPortal: { ...s.byPortal, [String(portalId)]: current } };
  });
}

/** The entries still live at `now`. */
export function liveEntries(entries: Record<string, SeenPresence> | undefined, now: number): SeenPresence[] {
  return Object.values(entries ?? {}).filter((e) => now - e.seen < PRESENCE_EXPIRY_MS);
}

export function resetPresenceStore(): void {
  usePresenceStore.setState({ byPortal: {} });
}

/** Whether a room message's data is a presence change. */
export function isPresenceMessage(data: unknown): data is PresenceMessage {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  const user = d.user as Record<string, unknown> | null | undefined;
  return (
    typeof d.path === 'string' &&
    (d.state === 'viewing' || d.state === 'editing' || d.state === 'left') &&
    !!user &&
    typeof user === 'object' &&
    user.id != null
  );
}
