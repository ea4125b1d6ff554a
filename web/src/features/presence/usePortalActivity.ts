/**
 * What other users do with the files of a portal (issue 21 item 5): who has a file open (presence:
 * GET /presence, then PRESENCE room messages) and who has uncommitted changes to it (wsChanges of
 * the open branch, kept live by WORKSPACE_LOCAL_CHANGES: features/realtime/workspaceStore).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { workspacePath } from '../../api/merge';
import { portalApi, portalKeys, type Id, type WorkspaceChange } from '../../api/portal';
import { PRESENCE_HEARTBEAT_MS, presenceApi, presenceKeys, type PresenceUser } from '../../api/presence';
import type { RoomMessage } from '../../api/realtime';
import { useSelectionStore } from '../../core/selectionStore';
import { useSessionStore } from '../../core/sessionStore';
import { roomId, useOtherUsersChanges, useRoomMessages } from '../realtime';
import { isPresenceMessage, liveEntries, receivePresence, setPresenceList, usePresenceStore } from './presenceStore';

export type ActivityKind = 'editing' | 'uncommitted' | 'viewing';

export interface Activity {
  user: PresenceUser;
  kind: ActivityKind;
}

/** Other users' activity per workspace path; each user once per path, the strongest kind first. */
export type ActivityByPath = ReadonlyMap<string, readonly Activity[]>;

const RANK: Record<ActivityKind, number> = { editing: 0, uncommitted: 1, viewing: 2 };
/** How often expired entries are dropped from view. */
const EXPIRY_TICK_MS = 5_000;

export const displayName = (u: PresenceUser) => [u.firstName, u.lastName].filter(Boolean).join(' ') || u.userName;

/** Applies a PRESENCE room message to the store. */
export function handlePresenceMessage(message: RoomMessage): void {
  if (message.title !== 'PRESENCE' || !isPresenceMessage(message.data)) return;
  const portalId = roomId(message.room, 'portal') ?? String(message.data.portalId ?? '');
  if (portalId) receivePresence(portalId, message.data);
}

/** The latest entry of each user: the branch's list, overridden by what the channel said since. */
function latestPerUser(fetched: readonly WorkspaceChange[], live: readonly WorkspaceChange[]): WorkspaceChange[] {
  const byUser = new Map<string, WorkspaceChange>();
  for (const c of fetched) byUser.set(String(c.user.id), c);
  for (const c of [...live].reverse()) byUser.set(String(c.user.id), c);
  return [...byUser.values()];
}

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), EXPIRY_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** Other users' activity on the portal's files (the caller's own is left out). */
export function usePortalActivity(domain: Id, portal: Id): ActivityByPath {
  const me = useSessionStore((s) => s.user?.id);
  const branch = useSelectionStore((s) => s.branch);
  const presence = useQuery({
    queryKey: presenceKeys.list(domain, portal),
    queryFn: () => presenceApi.list(domain, portal),
    refetchInterval: PRESENCE_HEARTBEAT_MS,
    retry: false,
  });
  useEffect(() => {
    if (presence.data) setPresenceList(portal, presence.data);
  }, [portal, presence.data, presence.dataUpdatedAt]);
  useRoomMessages(handlePresenceMessage);

  const changes = useQuery({
    queryKey: portalKeys.wsChanges(domain, portal, branch ?? ''),
    queryFn: () => portalApi.workspaceChanges(domain, portal, branch ?? ''),
    enabled: !!branch,
    refetchOnWindowFocus: 'always',
  });
  const live = useOtherUsersChanges(portal, branch);
  const entries = usePresenceStore((s) => s.byPortal[String(portal)]);
  const now = useNow();

  return useMemo(() => {
    const byPath = new Map<string, Map<string, Activity>>();
    const add = (path: string, user: PresenceUser, kind: ActivityKind) => {
      if (String(user.id) === String(me)) return;
      const key = workspacePath(path);
      const users = byPath.get(key) ?? new Map<string, Activity>();
      const known = users.get(String(user.id));
      if (!known || RANK[kind] < RANK[known.kind]) users.set(String(user.id), { user, kind });
      byPath.set(key, users);
    };
    for (const e of liveEntries(entries, now)) add(e.path, e.user, e.state);
    for (const c of latestPerUser(changes.data ?? [], live))
      if (!branch || c.branch === branch)
        for (const path of Object.keys(c.changes ?? {})) add(path, c.user, 'uncommitted');
    const result = new Map<string, Activity[]>();
    for (const [path, users] of byPath)
      result.set(
        path,
        [...users.values()].sort(
          (a, b) => RANK[a.kind] - RANK[b.kind] || displayName(a.user).localeCompare(displayName(b.user)),
        ),
      );
    return result;
  }, [entries, now, changes.data, live, branch, me]);
}

const NONE: readonly Activity[] = [];

/** Other users' activity on one file. */
export function useFileActivity(domain: Id, portal: Id, path: string | null | undefined): readonly Activity[] {
  const all = usePortalActivity(domain, portal);
  return (path && all.get(workspacePath(path))) || NONE;
}
