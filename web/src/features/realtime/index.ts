/**
 * Realtime (issue 5): mount RealtimeMount once in the signed-in shell; other features follow the
 * rooms' messages and the stores here. The header's notification centre and file-watcher menu are
 * registered lazily (register.ts) and not exported: they render other features' card actions.
 */
export { RealtimeMount, type RealtimeMountProps } from './RealtimeMount';
// Other features add their actions to the notification cards (previews, loadables; their register.ts
// imports ./cardActions itself, so the registration stays out of the login bundle).
export type { CardActionsProps } from './cardActions';
export {
  useRealtimeStore,
  useRealtimeStatus,
  useRealtimeConnection,
  setRealtimeClient,
  useRoomMessages,
  roomId,
  type RealtimeLike,
} from './realtimeStore';
export { useSocketDownPolling, SOCKET_DOWN_POLL_MS } from './useSocketDownPolling';
export { useOtherUsersChanges, useWorkspaceStore } from './workspaceStore';
export {
  useWorkspaceEvents,
  useNotificationEvents,
  RELOAD_WORKSPACE_EVENT,
  RELOAD_WORKSPACE_MESSAGE,
  type ReloadWorkspaceDetail,
} from './events';
export {
  useNotificationsStore,
  parseNotification,
  previewNotice,
  type Notification,
  type PreviewNotice,
} from './notificationsStore';
