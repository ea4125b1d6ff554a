/**
 * Presence (issue 21 item 5; advisory, never a lock): who else has a file open or changes it.
 * Editors call usePresence (PUT viewing / editing, heartbeat, DELETE) and show PresenceBar at
 * their top; lists (File Explorer, Page Manager) mark files with OthersMark from usePortalActivity.
 */
export { usePresence } from './usePresence';
export { PresenceBar, activityText, type PresenceBarProps } from './PresenceBar';
export { OthersMark, changingUsers, changingText } from './OthersMark';
export {
  usePortalActivity,
  useFileActivity,
  handlePresenceMessage,
  displayName,
  type Activity,
  type ActivityByPath,
  type ActivityKind,
} from './usePortalActivity';
export { PRESENCE_MESSAGES } from './messages';
export { resetPresenceStore, usePresenceStore } from './presenceStore';
export { pagePath } from './paths';
