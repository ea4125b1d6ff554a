/** Realtime UI pieces (issue 5): mount RealtimeMount once in the signed-in shell, the two buttons in the header. */
export { RealtimeMount, type RealtimeMountProps } from './RealtimeMount';
export { NotificationCenter } from './NotificationCenter';
export { FileWatcherMenu } from './FileWatcherMenu';
export {
  useRealtimeStore,
  useRealtimeStatus,
  useRealtimeConnection,
  setRealtimeClient,
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
export { useNotificationsStore } from './notificationsStore';
