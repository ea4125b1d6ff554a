/**
 * Previews of a portal (issue 13 item 4; spec 3 §3 "Preview", §4 "Previews", §7 "Preview", §8)
 * and the designer frame's read token (spec 2 §4 "Pages and designer").
 *
 * Portal previews — `preview/{domainId}/{portalId}…`, bearer auth, permission portal_read:
 * - POST preview/{d}/{p} with {type: PORTAL_LIVE | PORTAL_LOCKED, branch?, language?, page?}
 *   answers 202 with the Preview (PROGRESS, or already READY). The branch defaults to the
 *   caller's workspace branch. Synchronous refusals are 409 with errorCode PORTAL_INACTIVE,
 *   LIVE_PREVIEW_UNAVAILABLE (the 'Can't open live preview' overlay) or LIVE_PREVIEW_UNSTABLE
 *   (route error/live-preview-unstable); anything else is 'Failed to generate preview'.
 * - Progress arrives on the user room as CREATE_PREVIEW PROGRESS messages (features/realtime
 *   turns them into cards; data {preview, domainId, portalId, domainName, portalName, retry}).
 * - GET …/latest?type= answers the caller's latest unexpired preview or null; GET …/{id} one of
 *   the caller's own; DELETE …/{id} revokes its link (204).
 * - GET preview/qrCode/{id} answers {id, link, qrCode}: a base64 PNG (no data: prefix) of link.
 * - The link itself is public (no sign-in) and absolute: the phone or a new tab opens it.
 *
 * The designer frame's token: POST workspace/{domainId}/{portalId}/token mints a short-lived
 * read token scoped to the caller and the portal. The frame loads `base + …` (the token sits in
 * the path: a sandboxed frame cannot send the bearer header). When the server serves the frame on
 * an origin of its own (--frame-addr), `base` is absolute on that origin and the token is a
 * single-use ticket the frame origin exchanges for a cookie (the frame's own URL then carries no
 * key): one token per frame src. Never cached: every mint is a new token.
 */
import { api } from './client';
import type { Id } from './portal';
import type * as gen from './types.gen';
import type { Narrow } from './types';

export type PreviewToken = gen.PreviewTokenAnswer;

/** Mint this many seconds before the token expires (the frame never meets an expired token). */
export const PREVIEW_TOKEN_MARGIN_S = 60;

export const PREVIEW_TYPES = ['PORTAL_LOCKED', 'PORTAL_LIVE', 'LOADABLE'] as const;
export type PreviewType = (typeof PREVIEW_TYPES)[number];
/** The types a portal preview is created with (a LOADABLE one comes from a loadable). */
export type PortalPreviewType = Exclude<PreviewType, 'LOADABLE'>;
export type PreviewStatus = 'PROGRESS' | 'READY' | 'FAILED';

export type PreviewError = gen.NoticeErrorInfo;

export type Preview = Narrow<gen.PreviewPreview, { type: PreviewType; status: PreviewStatus }>;

export type CreatePreview = Narrow<gen.PreviewRequest, { type: PortalPreviewType }>;

export type PreviewQrCode = gen.PreviewQRAnswer;

/** The error codes of POST preview/{d}/{p} (409). */
export const PREVIEW_ERROR_CODES = {
  inactive: 'PORTAL_INACTIVE',
  unavailable: 'LIVE_PREVIEW_UNAVAILABLE',
  unstable: 'LIVE_PREVIEW_UNSTABLE',
} as const;

const seg = (v: Id) => encodeURIComponent(String(v));
const base = (d: Id, p: Id) => `preview/${seg(d)}/${seg(p)}`;

export const previewApi = {
  token: (d: Id, p: Id) => api.post<PreviewToken>(`workspace/${seg(d)}/${seg(p)}/token`),
  /** Starts a preview (202): PROGRESS, or READY when an identical one exists. */
  create: (d: Id, p: Id, body: CreatePreview) => api.post<Preview>(base(d, p), body),
  /** The caller's latest unexpired preview (of `type` when given), or null. */
  latest: async (d: Id, p: Id, type?: PreviewType): Promise<Preview | null> =>
    (await api.get<Preview | null>(`${base(d, p)}/latest`, { query: { type }, cache: 'no-store' })) ?? null,
  get: (d: Id, p: Id, id: Id) => api.get<Preview>(`${base(d, p)}/${seg(id)}`, { cache: 'no-store' }),
  /** Revokes the preview's link. */
  remove: (d: Id, p: Id, id: Id) => api.delete<void>(`${base(d, p)}/${seg(id)}`),
  qrCode: (id: Id) => api.get<PreviewQrCode>(`preview/qrCode/${seg(id)}`),
};

/** Query keys of a portal's previews. */
export const previewKeys = {
  portal: (d: Id, p: Id) => ['preview', String(d), String(p)] as const,
  latest: (d: Id, p: Id, type: PreviewType) => [...previewKeys.portal(d, p), 'latest', type] as const,
  one: (d: Id, p: Id, id: Id) => [...previewKeys.portal(d, p), 'one', String(id)] as const,
  qrCode: (id: Id) => ['preview', 'qrCode', String(id)] as const,
};

/** Whether a value looks like a Preview (a socket message's payload is not trusted). */
export function isPreview(value: unknown): value is Preview {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    (typeof v.id === 'number' || typeof v.id === 'string') &&
    typeof v.type === 'string' &&
    (PREVIEW_TYPES as readonly string[]).includes(v.type) &&
    (v.status === 'PROGRESS' || v.status === 'READY' || v.status === 'FAILED')
  );
}

/** Milliseconds until a fresh token should be minted (never below 5 s). */
export function renewPreviewAfterMs(token: Pick<PreviewToken, 'expiresIn'> | null | undefined): number {
  const seconds = (token?.expiresIn ?? 0) - PREVIEW_TOKEN_MARGIN_S;
  return Math.max(5, seconds) * 1000;
}
