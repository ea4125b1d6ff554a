/**
 * Notification cards (spec 3 §3 Notification, §4 "Realtime channel and notifications", §9).
 * Only PROGRESS room messages become cards. A card with a known id is replaced in place,
 * otherwise it is added at the top. Finished cards can be dismissed: they collapse over 500 ms
 * (`removing`), then are deleted. 'Clear all' does the same for every card.
 */
import { create } from 'zustand';
import type { NewPortal } from '../../api/portal';
import { isPreview, type PortalPreviewType, type Preview } from '../../api/preview';
import { paths } from '../../core/paths';

export type NotificationStatus = 'PROGRESS' | 'SUCCESS' | 'ERROR';
export const NOTIFICATION_STATUSES: readonly NotificationStatus[] = ['PROGRESS', 'SUCCESS', 'ERROR'];

/** Progress message types (spec 3 §3). */
export const PROGRESS_TYPES = [
  'GENERATE_LOADABLE',
  'CREATE_PORTAL',
  'CREATE_TEMPLATE',
  'UPDATE_TEMPLATE',
  'CREATE_PREVIEW',
  'CREATE_LOADABLE_PREVIEW',
  'UPLOAD_LOADABLE',
] as const;

export const NOTIFICATION_REMOVAL_MS = 500;

export interface Notification {
  id: string;
  title: string;
  details: string;
  status: NotificationStatus;
  /** Percent, clamped to 0–100. */
  progress: number;
  messageType: string;
  data: unknown;
  component?: string;
  stateInformation?: unknown;
}

export interface NotificationCard extends Notification {
  /** When the card was first seen (ms since epoch). */
  startedAt: number;
  /** When it reached SUCCESS or ERROR (null while in progress). */
  finishedAt: number | null;
  /** True while it collapses before deletion. */
  removing: boolean;
}

export const clampProgress = (value: unknown): number => {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) return 0;
  return Math.min(100, Math.max(0, n));
};

const text = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : String(value));

/** Reads a notification from a message's data; null when it has no id or no known status. */
export function parseNotification(data: unknown): Notification | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if ((typeof d.id !== 'string' && typeof d.id !== 'number') || String(d.id) === '') return null;
  const status = String(d.status ?? '').toUpperCase() as NotificationStatus;
  if (!NOTIFICATION_STATUSES.includes(status)) return null;
  return {
    id: String(d.id),
    title: text(d.title),
    details: text(d.details),
    status,
    progress: clampProgress(d.progress),
    messageType: text(d.messageType),
    data: d.data ?? null,
    component: typeof d.component === 'string' ? d.component : undefined,
    stateInformation: d.stateInformation,
  };
}

export const isFinished = (card: Pick<Notification, 'status'>) => card.status !== 'PROGRESS';

interface NotificationsState {
  cards: NotificationCard[];
}

export const useNotificationsStore = create<NotificationsState>(() => ({ cards: [] }));

const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

/**
 * Adds or replaces a card; returns the previous version (undefined when new). A card being
 * removed that gets a new message comes back.
 */
export function upsertNotification(n: Notification, now = Date.now()): NotificationCard | undefined {
  const { cards } = useNotificationsStore.getState();
  const previous = cards.find((c) => c.id === n.id);
  const timer = removalTimers.get(n.id);
  if (timer !== undefined) {
    clearTimeout(timer);
    removalTimers.delete(n.id);
  }
  const card: NotificationCard = {
    ...n,
    startedAt: previous?.startedAt ?? now,
    finishedAt: isFinished(n) ? (previous?.finishedAt ?? now) : null,
    removing: false,
  };
  useNotificationsStore.setState({
    cards: previous ? cards.map((c) => (c.id === n.id ? card : c)) : [card, ...cards],
  });
  return previous;
}

/** Deletes a card at once. */
export function deleteNotification(id: string): void {
  const timer = removalTimers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  removalTimers.delete(id);
  useNotificationsStore.setState((s) => ({ cards: s.cards.filter((c) => c.id !== id) }));
}

function collapse(ids: string[]): void {
  if (ids.length === 0) return;
  const set = new Set(ids);
  useNotificationsStore.setState((s) => ({
    cards: s.cards.map((c) => (set.has(c.id) ? { ...c, removing: true } : c)),
  }));
  for (const id of ids) {
    if (removalTimers.has(id)) continue;
    removalTimers.set(
      id,
      setTimeout(() => deleteNotification(id), NOTIFICATION_REMOVAL_MS),
    );
  }
}

/** Dismisses a finished card: it collapses for 500 ms, then is deleted. */
export function dismissNotification(id: string): void {
  const card = useNotificationsStore.getState().cards.find((c) => c.id === id);
  if (card && isFinished(card)) collapse([id]);
}

/** 'Clear all': every card collapses, then is deleted. */
export function clearNotifications(): void {
  collapse(useNotificationsStore.getState().cards.map((c) => c.id));
}

/** Forgets every card at once (sign-out, tests). */
export function resetNotifications(): void {
  for (const timer of removalTimers.values()) clearTimeout(timer);
  removalTimers.clear();
  useNotificationsStore.setState({ cards: [] });
}

/** A portal the card is about: data {domainId, portalId} of a successful CREATE_PORTAL. */
export function createdPortal(card: Notification): { domainId: string; portalId: string } | null {
  if (card.messageType !== 'CREATE_PORTAL' || card.status !== 'SUCCESS') return null;
  const d = card.data as Record<string, unknown> | null;
  if (!d || typeof d !== 'object') return null;
  const ok = (v: unknown) => (typeof v === 'number' || typeof v === 'string') && String(v) !== '';
  if (!ok(d.domainId) || !ok(d.portalId)) return null;
  return { domainId: String(d.domainId), portalId: String(d.portalId) };
}

/** The dashboard of a created portal (spec 3 §2 'GO TO PORTAL'). */
export const portalDashboardPath = (domainId: string, portalId: string) =>
  paths.portalScreen(domainId, portalId, 'master');

/**
 * What an error card needs to be retried: data.retry of a failed CREATE_PORTAL, either
 * {kind:'clone', domainId, sourcePortalId, portal} or {kind:'template', domainId, portal,
 * templateId | starter}. Without it the card offers no Retry.
 */
export type RetryRequest =
  | { kind: 'clone'; domainId: string; sourcePortalId: string; portal: NewPortal }
  | { kind: 'template'; domainId: string; portal: NewPortal; templateId?: number; starter?: string };

export function retryRequest(card: Notification): RetryRequest | null {
  if (card.status !== 'ERROR' || card.messageType !== 'CREATE_PORTAL') return null;
  const data = card.data as Record<string, unknown> | null;
  const r = data && typeof data === 'object' ? (data.retry as Record<string, unknown> | undefined) : undefined;
  if (!r || typeof r !== 'object') return null;
  const id = (v: unknown) => ((typeof v === 'number' || typeof v === 'string') && String(v) !== '' ? String(v) : null);
  const domainId = id(r.domainId);
  const portal = r.portal as Record<string, unknown> | undefined;
  if (!domainId || !portal || typeof portal !== 'object' || typeof portal.name !== 'string' || !portal.name)
    return null;
  const newPortal: NewPortal = {
    name: portal.name,
    type: portal.type === 'CREW' || portal.type === 'PASSENGER' ? portal.type : undefined,
    scope:
      portal.scope === 'FULL' || portal.scope === 'MICROSITE' || portal.scope === 'CAPTIVE' ? portal.scope : undefined,
    categoryId: typeof portal.categoryId === 'number' ? portal.categoryId : null,
  };
  if (r.kind === 'clone') {
    const sourcePortalId = id(r.sourcePortalId);
    return sourcePortalId ? { kind: 'clone', domainId, sourcePortalId, portal: newPortal } : null;
  }
  if (r.kind === 'template') {
    const templateId = typeof r.templateId === 'number' ? r.templateId : undefined;
    const starter = typeof r.starter === 'string' && r.starter ? r.starter : undefined;
    return templateId !== undefined || starter
      ? { kind: 'template', domainId, portal: newPortal, templateId, starter }
      : null;
  }
  return null;
}

/** Preview generation cards (spec 3 §4 "Previews"). */
export const PREVIEW_PROGRESS_TYPES = ['CREATE_PREVIEW', 'CREATE_LOADABLE_PREVIEW'] as const;

export const isPreviewNotification = (n: Pick<Notification, 'messageType'>): boolean =>
  (PREVIEW_PROGRESS_TYPES as readonly string[]).includes(n.messageType);

/** What a failed portal preview is asked for again with (data.retry of a CREATE_PREVIEW). */
export interface PreviewRetry {
  domainId: string;
  portalId: string;
  type: PortalPreviewType;
  branch?: string;
  language?: string;
  page?: string;
}

/** What a preview card shows: data {preview, domainId, portalId, domainName, portalName, retry}. */
export interface PreviewNotice {
  domainId: string | null;
  portalId: string | null;
  domainName: string;
  portalName: string;
  /** The preview as the message knows it (null when it carries none). */
  preview: Preview | null;
  /** Only on an ERROR card that carries a usable retry (never for loadable previews yet). */
  retry: PreviewRetry | null;
}

const idOf = (v: unknown): string | null =>
  (typeof v === 'number' || typeof v === 'string') && String(v) !== '' ? String(v) : null;
const optionalText = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** Reads a preview card's data; null for other messages. */
export function previewNotice(n: Pick<Notification, 'messageType' | 'data' | 'status'>): PreviewNotice | null {
  if (!isPreviewNotification(n)) return null;
  const d = n.data && typeof n.data === 'object' ? (n.data as Record<string, unknown>) : {};
  const preview = isPreview(d.preview) ? d.preview : null;
  let retry: PreviewRetry | null = null;
  const r = d.retry && typeof d.retry === 'object' ? (d.retry as Record<string, unknown>) : null;
  if (n.status === 'ERROR' && n.messageType === 'CREATE_PREVIEW' && r) {
    const domainId = idOf(r.domainId);
    const portalId = idOf(r.portalId);
    if (domainId && portalId && (r.type === 'PORTAL_LIVE' || r.type === 'PORTAL_LOCKED')) {
      retry = {
        domainId,
        portalId,
        type: r.type,
        branch: optionalText(r.branch),
        language: optionalText(r.language),
        page: optionalText(r.page),
      };
    }
  }
  return {
    domainId: idOf(d.domainId) ?? (preview ? String(preview.domainId) : null),
    portalId: idOf(d.portalId) ?? (preview ? String(preview.portalId) : null),
    domainName: text(d.domainName) || preview?.domainName || '',
    portalName: text(d.portalName) || preview?.portalName || '',
    preview,
    retry,
  };
}
