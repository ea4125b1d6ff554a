import type { PreviewType } from '../../api/preview';

/** Texts of portal previews (spec 3 §2 "Screens and dialogs", §4 "Previews", §8). */
export const PREVIEW_MESSAGES = {
  cardTitle: 'Previews',
  livePreview: 'Live preview',
  lockedPreview: 'Locked preview',
  inactive: 'An inactive portal cannot be previewed.',
  none: 'No preview yet',
  generating: 'Generating the preview…',
  details: 'Details',
  open: 'Open',
  revoke: 'Revoke',
  revokeFailed: 'Could not revoke the preview link',
  openPreview: 'Open preview',
  retry: 'Retry',
  dialogTitle: 'Preview',
  close: 'Close',
  copyLink: 'Copy link',
  linkCopied: 'Link copied to clipboard',
  copyFailed: 'Failed to copy the link to the clipboard',
  qrAlt: 'QR code of the preview link',
  qrLoading: 'Loading the QR code',
  qrFailed: 'Could not load the QR code',
  notReady: 'The preview is being generated. Its link and QR code appear when it is ready.',
  expires: 'Expires',
  created: 'Created',
  type: 'Type',
  branch: 'Branch',
  commit: 'Commit',
  language: 'Language',
  // §8
  failed: 'Failed to generate preview',
  loadableFailed: 'Failed to generate loadable preview',
  // §2 'Can't open live preview' overlay
  unavailableTitle: "Can't open live preview",
  unavailableMessage: 'The live preview workspace has changed and cannot be opened as it is.',
  unavailableContact: 'If the error persists, please contact the Domain Administrator.',
  ok: 'OK',
} as const;

/** Spec 3 §9 "Dialog sizes": the preview detail dialog is 350 x 400. */
export const PREVIEW_DIALOG_SIZE = { width: 350, height: 400 } as const;

/** While a shown preview is still being generated it is read again this often (socket down). */
export const PREVIEW_PROGRESS_POLL_MS = 5000;

export const PREVIEW_TYPE_LABELS: Record<PreviewType, string> = {
  PORTAL_LIVE: PREVIEW_MESSAGES.livePreview,
  PORTAL_LOCKED: PREVIEW_MESSAGES.lockedPreview,
  LOADABLE: 'Loadable preview',
};

/** The route of the build-unstable screen (spec 3 §2 error/live-preview-unstable). */
export function livePreviewUnstablePath(q: {
  domain: string;
  portal: string;
  branch?: string | null;
  language?: string | null;
}) {
  const query = new URLSearchParams({ domain: q.domain, portal: q.portal });
  if (q.branch) query.set('branch', q.branch);
  if (q.language) query.set('language', q.language);
  return `/error/live-preview-unstable?${query.toString()}`;
}
