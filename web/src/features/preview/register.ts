/**
 * A preview's notification card gets its actions (Details, Open preview, Retry) from here: the
 * notification centre (features/realtime) imports no previews, previews import realtime. Loaded
 * lazily with the first card, as the notification centre is.
 */
import { lazyComponent } from '../../core/registry';
import { registerCardActions } from '../realtime/cardActions';

registerCardActions({
  id: 'preview',
  order: 10,
  Component: lazyComponent(() =>
    import('./PreviewCardActions').then((m) => ({ default: m.PreviewNotificationActions })),
  ),
});
