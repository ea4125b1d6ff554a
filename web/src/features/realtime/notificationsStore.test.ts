import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatElapsed } from './format';
import {
  clampProgress,
  clearNotifications,
  createdPortal,
  dismissNotification,
  NOTIFICATION_REMOVAL_MS,
  parseNotification,
  previewNotice,
  resetNotifications,
  retryRequest,
  upsertNotification,
  useNotificationsStore,
  type Notification,
} from './notificationsStore';

const n = (id: string, extra: Partial<Notification> = {}): Notification => ({
  id,
  title: id,
  details: '',
  status: 'PROGRESS',
  progress: 10,
  messageType: 'CREATE_PORTAL',
  data: null,
  ...extra,
});
const ids = () => useNotificationsStore.getState().cards.map((c) => c.id);

beforeEach(resetNotifications);
afterEach(() => {
  vi.useRealTimers();
  resetNotifications();
});

describe('notification cards', () => {
  it('adds unknown ids at the top and replaces known ones in place', () => {
    upsertNotification(n('a'), 1000);
    upsertNotification(n('b'), 2000);
    expect(ids()).toEqual(['b', 'a']);
    upsertNotification(n('a', { progress: 60, details: 'Copying' }), 3000);
    expect(ids()).toEqual(['b', 'a']);
    const a = useNotificationsStore.getState().cards[1];
    expect(a).toMatchObject({ progress: 60, details: 'Copying', startedAt: 1000, finishedAt: null });
    upsertNotification(n('a', { status: 'SUCCESS', progress: 100 }), 9000);
    expect(useNotificationsStore.getState().cards[1]).toMatchObject({
      status: 'SUCCESS',
      finishedAt: 9000,
      startedAt: 1000,
    });
  });

  it('clamps progress to 0–100 and drops data without an id or a known status', () => {
    expect(clampProgress(140)).toBe(100);
    expect(clampProgress(-5)).toBe(0);
    expect(clampProgress('42')).toBe(42);
    expect(clampProgress('x')).toBe(0);
    expect(parseNotification({ id: 'x', status: 'progress', progress: 250 })).toMatchObject({
      status: 'PROGRESS',
      progress: 100,
    });
    expect(parseNotification({ status: 'PROGRESS' })).toBeNull();
    expect(parseNotification({ id: 'x', status: 'DONE' })).toBeNull();
    expect(parseNotification('nope')).toBeNull();
  });

  it('dismisses only finished cards, after a 500 ms collapse', () => {
    vi.useFakeTimers();
    upsertNotification(n('running'));
    upsertNotification(n('done', { status: 'ERROR', progress: 100 }));
    dismissNotification('running');
    expect(useNotificationsStore.getState().cards.every((c) => !c.removing)).toBe(true);
    dismissNotification('done');
    expect(useNotificationsStore.getState().cards.find((c) => c.id === 'done')?.removing).toBe(true);
    vi.advanceTimersByTime(NOTIFICATION_REMOVAL_MS - 1);
    expect(ids()).toEqual(['done', 'running']);
    vi.advanceTimersByTime(1);
    expect(ids()).toEqual(['running']);
  });

  it('clear all collapses every card, then removes them; a new message brings a card back', () => {
    vi.useFakeTimers();
    upsertNotification(n('a'));
    upsertNotification(n('b', { status: 'SUCCESS' }));
    clearNotifications();
    expect(useNotificationsStore.getState().cards.every((c) => c.removing)).toBe(true);
    upsertNotification(n('a', { progress: 50 }));
    vi.advanceTimersByTime(NOTIFICATION_REMOVAL_MS);
    expect(ids()).toEqual(['a']);
    expect(useNotificationsStore.getState().cards[0]).toMatchObject({ removing: false, progress: 50 });
  });

  it('reads the created portal and the retry request from the card data', () => {
    expect(createdPortal(n('a', { status: 'SUCCESS', data: { domainId: 1, portalId: 12 } }))).toEqual({
      domainId: '1',
      portalId: '12',
    });
    expect(createdPortal(n('a', { status: 'SUCCESS', data: null }))).toBeNull();
    expect(createdPortal(n('a', { status: 'PROGRESS', data: { domainId: 1, portalId: 12 } }))).toBeNull();
    expect(retryRequest(n('a', { status: 'ERROR' }))).toBeNull();
    expect(
      retryRequest(
        n('a', {
          status: 'ERROR',
          data: { retry: { kind: 'clone', domainId: 1, sourcePortalId: 3, portal: { name: 'Copy' } } },
        }),
      ),
    ).toEqual({ kind: 'clone', domainId: '1', sourcePortalId: '3', portal: { name: 'Copy', categoryId: null } });
    expect(
      retryRequest(n('a', { status: 'ERROR', data: { retry: { kind: 'clone', domainId: 1, portal: { name: 'C' } } } })),
    ).toBeNull();
  });
});

describe('formatElapsed', () => {
  it('shows seconds up to 60, then minutes, hours and days with 2 decimals', () => {
    expect(formatElapsed(0)).toBe('0 seconds');
    expect(formatElapsed(1)).toBe('1 second');
    expect(formatElapsed(45.7)).toBe('45 seconds');
    expect(formatElapsed(60)).toBe('60 seconds');
    expect(formatElapsed(90)).toBe('1.50 minutes');
    expect(formatElapsed(3600)).toBe('60.00 minutes');
    expect(formatElapsed(5400)).toBe('1.50 hours');
    expect(formatElapsed(86400)).toBe('24.00 hours');
    expect(formatElapsed(129600)).toBe('1.50 days');
    expect(formatElapsed(-3)).toBe('0 seconds');
  });
});

describe('previewNotice', () => {
  const data = {
    preview: {
      id: 5,
      type: 'PORTAL_LIVE',
      status: 'READY',
      domainId: 1,
      portalId: 2,
      domainName: 'Demo Airline',
      portalName: 'Passenger Portal',
      link: 'http://x/l',
    },
    domainId: 1,
    portalId: 2,
    domainName: 'Demo Airline',
    portalName: 'Passenger Portal',
    retry: { domainId: 1, portalId: 2, type: 'PORTAL_LOCKED', branch: 'master', language: '', page: 'home' },
  };

  it('reads the names, the preview and, on error only, the retry', () => {
    const success = previewNotice(n('p', { messageType: 'CREATE_PREVIEW', status: 'SUCCESS', data }));
    expect(success).toMatchObject({ domainId: '1', portalId: '2', domainName: 'Demo Airline', retry: null });
    expect(success?.preview?.link).toBe('http://x/l');
    const error = previewNotice(n('p', { messageType: 'CREATE_PREVIEW', status: 'ERROR', data }));
    expect(error?.retry).toEqual({
      domainId: '1',
      portalId: '2',
      type: 'PORTAL_LOCKED',
      branch: 'master',
      language: undefined,
      page: 'home',
    });
  });

  it('is null for other messages; loadable previews have no retry; bad payloads are tolerated', () => {
    expect(previewNotice(n('p', { messageType: 'CREATE_PORTAL', data }))).toBeNull();
    expect(previewNotice(n('p', { messageType: 'CREATE_LOADABLE_PREVIEW', status: 'ERROR', data }))?.retry).toBeNull();
    const bare = previewNotice(n('p', { messageType: 'CREATE_PREVIEW', status: 'ERROR', data: 'nonsense' }));
    expect(bare).toEqual({
      domainId: null,
      portalId: null,
      domainName: '',
      portalName: '',
      preview: null,
      retry: null,
    });
    const badRetry = { ...data, retry: { domainId: 1, portalId: 2, type: 'LOADABLE' } };
    expect(previewNotice(n('p', { messageType: 'CREATE_PREVIEW', status: 'ERROR', data: badRetry }))?.retry).toBeNull();
  });
});
