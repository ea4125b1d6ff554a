/**
 * The preview frame's token (docs/api.md "Preview (workspace files)"; spec 2 §4 "Pages and
 * designer"): POST workspace/{domainId}/{portalId}/token mints a short-lived read token scoped to
 * the caller and the portal. The frame loads `base + …` (the token sits in the path: a sandboxed
 * frame cannot send the bearer header). Never cached: every mint is a new token.
 */
import { api } from './client';
import type { Id } from './portal';

export interface PreviewToken {
  token: string;
  /** Seconds the token stays valid (1800). */
  expiresIn: number;
  /** '/api/v1/workspace/<token>/<domainId>/<portalId>/' */
  base: string;
}

/** Mint this many seconds before the token expires (the frame never meets an expired token). */
export const PREVIEW_TOKEN_MARGIN_S = 60;

const seg = (v: Id) => encodeURIComponent(String(v));

export const previewApi = {
  token: (d: Id, p: Id) => api.post<PreviewToken>(`workspace/${seg(d)}/${seg(p)}/token`),
};

/** Milliseconds until a fresh token should be minted (never below 5 s). */
export function renewPreviewAfterMs(token: Pick<PreviewToken, 'expiresIn'> | null | undefined): number {
  const seconds = (token?.expiresIn ?? 0) - PREVIEW_TOKEN_MARGIN_S;
  return Math.max(5, seconds) * 1000;
}
