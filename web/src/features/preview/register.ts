/**
 * A preview's notification card gets its actions (Details, Open preview, Retry) from here: the
 * notification centre (features/realtime) imports no previews, previews import realtime.
 */
import { registerCardActions } from '../realtime';
import { PreviewNotificationActions } from './PreviewCardActions';

registerCardActions({ id: 'preview', order: 10, Component: PreviewNotificationActions });
