/**
 * Live workspace state from the realtime channel (spec 3 §4 "Workspace changes", "Branch
 * switching"): other users' workspace changes per portal, and the file watcher of the open
 * workspace (LOADING until the first event or refresh after a portal opens or the branch
 * changes, then READY).
 */
import { create } from 'zustand';
import type { ChangeType, WorkspaceChange } from '../../api/portal';

export type FileWatcherStatus = 'LOADING' | 'READY';

export interface FileWatcherState {
  /** `<portalId>@<branch>` of the workspace watched; null when no portal is open. */
  key: string | null;
  status: FileWatcherStatus;
  changes: Record<string, ChangeType>;
}

interface WorkspaceState {
  /** Other users' workspace changes by portal id, latest first. */
  otherUsersChanges: Record<string, WorkspaceChange[]>;
  fileWatcher: FileWatcherState;
}

const noWatcher: FileWatcherState = { key: null, status: 'LOADING', changes: {} };

export const useWorkspaceStore = create<WorkspaceState>(() => ({ otherUsersChanges: {}, fileWatcher: noWatcher }));

export const watcherKey = (portalId: string | number, branch: string) => `${portalId}@${branch}`;

/** Replaces that user's entry, or adds it at the front. */
export function receiveOtherUserChange(portalId: string | number, change: WorkspaceChange): void {
  const key = String(portalId);
  useWorkspaceStore.setState((s) => {
    const rest = (s.otherUsersChanges[key] ?? []).filter((c) => String(c.user.id) !== String(change.user.id));
    return { otherUsersChanges: { ...s.otherUsersChanges, [key]: [change, ...rest] } };
  });
}

/** After one's own commit to `branch`, the other users on it are one more commit behind. */
export function bumpBehindCounts(portalId: string | number, branch: string): void {
  const key = String(portalId);
  useWorkspaceStore.setState((s) => {
    const list = s.otherUsersChanges[key];
    if (!list) return s;
    return {
      otherUsersChanges: {
        ...s.otherUsersChanges,
        [key]: list.map((c) => (c.branch === branch ? { ...c, behindCount: c.behindCount + 1 } : c)),
      },
    };
  });
}

/** Forgets the other users' changes of a portal (or of all portals). */
export function clearOtherUsersChanges(portalId?: string | number): void {
  useWorkspaceStore.setState((s) => {
    if (portalId === undefined) return { otherUsersChanges: {} };
    const next = { ...s.otherUsersChanges };
    delete next[String(portalId)];
    return { otherUsersChanges: next };
  });
}

const EMPTY: WorkspaceChange[] = [];

/** Other users' workspace changes of a portal, latest first; only those on `branch` when given. */
export function useOtherUsersChanges(portalId: string | number | null | undefined, branch?: string | null) {
  const list = useWorkspaceStore((s) => (portalId == null ? EMPTY : (s.otherUsersChanges[String(portalId)] ?? EMPTY)));
  return branch ? list.filter((c) => c.branch === branch) : list;
}

/** Starts watching a workspace (LOADING, no changes); null stops watching. */
export function resetFileWatcher(key: string | null): void {
  useWorkspaceStore.setState({ fileWatcher: { key, status: 'LOADING', changes: {} } });
}

/** The watched workspace's changes arrived (an event or a refresh): READY. Ignored for another workspace. */
export function updateFileWatcher(key: string, changes: Record<string, ChangeType> | null | undefined): void {
  if (useWorkspaceStore.getState().fileWatcher.key !== key) return;
  useWorkspaceStore.setState({ fileWatcher: { key, status: 'READY', changes: { ...(changes ?? {}) } } });
}

export function resetWorkspaceStore(): void {
  useWorkspaceStore.setState({ otherUsersChanges: {}, fileWatcher: noWatcher });
}
