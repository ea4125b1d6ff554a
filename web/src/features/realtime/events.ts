/**
 * What the app does with room messages (spec 3 §4 "Realtime channel and notifications",
 * "Workspace changes, commit, revert"; docs/api.md "Realtime").
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RoomMessage } from '../../api/realtime';
import { isTemplatesKey, portalKeys, type WorkspaceChange } from '../../api/portal';
import { preferenceKeys } from '../../api/preference';
import { useSelectionStore } from '../../core/selectionStore';
import { workspaceChanged } from '../../core/workspaceRefresh';
import { useSessionStore } from '../../core/sessionStore';
import { showToast, useToastStore } from '../../core/toastService';
import { parseNotification, upsertNotification } from './notificationsStore';
import { gatherUploadNotice, isUploadNotice } from './uploadNotices';
import { roomId, useRoomMessages } from './realtimeStore';
import { bumpBehindCounts, receiveOtherUserChange, updateFileWatcher, watcherKey } from './workspaceStore';

export const PORTAL_CREATED_MESSAGE = 'Portal created successfully';
/** Success toast of a clone lasts 10 s (spec 3 §9 "Toasts"). */
export const PORTAL_CREATED_TOAST_MS = 10_000;
export const RELOAD_WORKSPACE_MESSAGE =
  'Another user committed changes to the portal, please reload your workspace now to prevent conflicts';
export const RELOAD_NOW = 'Reload Now';
/** Window event fired when the user accepts the reload toast; detail: ReloadWorkspaceDetail. */
export const RELOAD_WORKSPACE_EVENT = 'pw:reload-workspace';

export interface ReloadWorkspaceDetail {
  domainId: string;
  portalId: string;
  branch: string;
}

const sameId = (a: unknown, b: unknown) => a != null && b != null && String(a) === String(b);
const asRecord = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' ? (v as Record<string, unknown>) : null;

/** PROGRESS messages become notification cards; a created portal is announced and lists refresh. */
export function handleProgressMessage(message: RoomMessage, queryClient: QueryClient): void {
  if (message.messageType !== 'PROGRESS') return;
  const notification = parseNotification(message.data);
  if (!notification) return;
  const previous = upsertNotification(notification);
  if (notification.status === 'PROGRESS' || previous?.status === notification.status) return;
  if (notification.messageType === 'CREATE_PORTAL' && notification.status === 'SUCCESS') {
    // The screen that asked for the portal shows 'Portal created successfully' when its call
    // returns (creation is synchronous); the card carries it here, so no second toast.
    const domainId = asRecord(notification.data)?.domainId;
    if (domainId != null) {
      void queryClient.invalidateQueries({ queryKey: portalKeys.domainPortals(String(domainId)) });
      void queryClient.invalidateQueries({ queryKey: portalKeys.managed(String(domainId)) });
    }
  }
  if (notification.messageType === 'CREATE_TEMPLATE' || notification.messageType === 'UPDATE_TEMPLATE')
    void queryClient.invalidateQueries({ predicate: (q) => isTemplatesKey(q.queryKey) });
}

/**
 * Reload Now: opens the workspace again (the server fast-forwards it to the other user's
 * commit), then refreshes every view derived from it (core/workspaceRefresh.ts), and
 * announces the reload with RELOAD_WORKSPACE_EVENT. Resolves when the views have reloaded.
 */
export async function reloadWorkspace(queryClient: QueryClient, detail: ReloadWorkspaceDetail): Promise<void> {
  await workspaceChanged(
    queryClient,
    { domainId: detail.domainId, portalId: detail.portalId, branch: detail.branch },
    { reopen: true },
  );
  window.dispatchEvent(new CustomEvent<ReloadWorkspaceDetail>(RELOAD_WORKSPACE_EVENT, { detail }));
}

let reloadToastId: number | null = null;

/** Shows the reload prompt once (a second commit while it is up does not stack another). */
function promptReload(onAccept: () => void): void {
  if (reloadToastId !== null && useToastStore.getState().toasts.some((t) => t.id === reloadToastId)) return;
  const handle = showToast({
    type: 'WARNING',
    message: RELOAD_WORKSPACE_MESSAGE,
    isPrompt: true,
    promptAcceptText: RELOAD_NOW,
    promptRejectText: 'Later',
  });
  if (!handle) return;
  reloadToastId = handle.id;
  void handle.result.then((accepted) => {
    if (reloadToastId === handle.id) reloadToastId = null;
    if (accepted) onAccept();
  });
}

function isWorkspaceChange(v: unknown): v is WorkspaceChange {
  const r = asRecord(v);
  const user = asRecord(r?.user);
  return !!r && !!user && user.id != null && typeof r.branch === 'string';
}

export interface WorkspaceEventsOptions {
  /** Called after 'Reload Now' is accepted (besides the query invalidation and the window event). */
  onReloadWorkspace?: (detail: ReloadWorkspaceDetail) => void;
}

/** Applies one room message about workspaces, preferences or templates. */
export function handleWorkspaceMessage(
  message: RoomMessage,
  queryClient: QueryClient,
  options: WorkspaceEventsOptions = {},
): void {
  const me = useSessionStore.getState().user?.id;
  const selection = useSelectionStore.getState();
  const data = asRecord(message.data);
  switch (message.title) {
    case 'PREFERENCE_UPDATED':
      void queryClient.invalidateQueries({ queryKey: preferenceKeys.all });
      return;
    case 'TEMPLATE_CREATED': {
      const domainId = roomId(message.room, 'domain') ?? (data?.domainId != null ? String(data.domainId) : null);
      if (domainId) void queryClient.invalidateQueries({ queryKey: portalKeys.templates(domainId) });
      else void queryClient.invalidateQueries({ predicate: (q) => isTemplatesKey(q.queryKey) });
      return;
    }
    case 'WORKSPACE_LOCAL_COMMITS': {
      if (!data || data.domainId == null || data.portalId == null) return;
      void queryClient.invalidateQueries({
        queryKey: portalKeys.localCommits(String(data.domainId), String(data.portalId)),
      });
      void queryClient.invalidateQueries({
        queryKey: portalKeys.localChanges(String(data.domainId), String(data.portalId)),
      });
      return;
    }
    case 'WORKSPACE_LOCAL_CHANGES': {
      const portalId = roomId(message.room, 'portal');
      if (!portalId || !isWorkspaceChange(message.data)) return;
      const change = message.data;
      const domainId = selection.domain && sameId(selection.portal?.id, portalId) ? String(selection.domain.id) : null;
      if (sameId(change.user.id, me)) {
        updateFileWatcher(watcherKey(portalId, change.branch), change.changes);
        if (domainId) void queryClient.invalidateQueries({ queryKey: portalKeys.localChanges(domainId, portalId) });
      } else {
        receiveOtherUserChange(portalId, change);
        if (domainId) void queryClient.invalidateQueries({ queryKey: portalKeys.wsChanges(domainId, portalId) });
      }
      return;
    }
    case 'ASSET_UPLOADED': {
      const portalId = roomId(message.room, 'portal');
      if (!portalId || !isUploadNotice(message.data) || sameId(message.data.user.id, me)) return;
      // Only for the portal the user has open.
      if (sameId(selection.portal?.id, portalId)) gatherUploadNotice(message.data);
      return;
    }
    case 'WORKSPACE_COMMIT': {
      const portalId = roomId(message.room, 'portal') ?? (data?.portalId != null ? String(data.portalId) : null);
      const user = asRecord(data?.user);
      if (!portalId || !data || typeof data.branch !== 'string' || !user) return;
      const branch = data.branch;
      if (sameId(user.id, me)) {
        bumpBehindCounts(portalId, branch);
        return;
      }
      const open = selection.portal && selection.domain && sameId(selection.portal.id, portalId);
      if (!open || selection.branch !== branch) return;
      const detail: ReloadWorkspaceDetail = { domainId: String(selection.domain!.id), portalId, branch };
      promptReload(() => {
        void reloadWorkspace(queryClient, detail).then(() => options.onReloadWorkspace?.(detail));
      });
      return;
    }
  }
}

/** Turns PROGRESS room messages into notification cards while mounted. */
export function useNotificationEvents(): void {
  const queryClient = useQueryClient();
  useRoomMessages((message) => handleProgressMessage(message, queryClient));
}

/** Applies workspace, template and preference messages while mounted. */
export function useWorkspaceEvents(options: WorkspaceEventsOptions = {}): void {
  const queryClient = useQueryClient();
  useRoomMessages((message) => {
    if (message.messageType === 'PROGRESS') return;
    handleWorkspaceMessage(message, queryClient, options);
  });
}
