/**
 * Realtime's header actions: the notification centre and the file watcher (spec 1 §2.4).
 * RealtimeMount itself is mounted by the shell frame.
 */
import { lazyComponent, registerHeaderAction } from '../../core/registry';

registerHeaderAction({
  id: 'realtime.notifications',
  order: 10,
  Component: lazyComponent(() => import('./NotificationCenter').then((m) => ({ default: m.NotificationCenter }))),
});
registerHeaderAction({
  id: 'realtime.fileWatcher',
  order: 20,
  Component: lazyComponent(() => import('./FileWatcherMenu').then((m) => ({ default: m.FileWatcherMenu }))),
});
