/**
 * Other users' uploads (ASSET_UPLOADED, spec 2 §3 "Upload notification"): an upload of many
 * files sends one message per file, so the messages of one user and folder are gathered for
 * UPLOAD_NOTICE_GATHER_MS and shown as one info toast. Each user uploads into their own
 * workspace, so nothing of ours reloads: the toast tells who is adding what, where.
 */
import { toasts } from '../../core/toastService';

export const UPLOAD_NOTICE_GATHER_MS = 2000;

export interface UploadNotice {
  file: string;
  uploadPath: string;
  branch: string;
  user: { id?: number | string; firstName?: string; lastName?: string };
  domain?: string;
  portal?: string;
}

export function isUploadNotice(v: unknown): v is UploadNotice {
  const r = v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  return (
    !!r && typeof r.file === 'string' && typeof r.uploadPath === 'string' && !!r.user && typeof r.user === 'object'
  );
}

/** 'Ann Lee uploaded logo.png to /images (master)' or '… uploaded 3 files to …'. */
export function uploadNoticeMessage(notices: readonly UploadNotice[]): string {
  const [first] = notices;
  if (!first) return '';
  const who = [first.user.firstName, first.user.lastName].filter(Boolean).join(' ') || 'Another user';
  const what = notices.length === 1 ? first.file : `${String(notices.length)} files`;
  const where = first.branch ? `${first.uploadPath} (${first.branch})` : first.uploadPath;
  return `${who} uploaded ${what} to ${where}`;
}

const pending = new Map<string, { notices: UploadNotice[]; timer: ReturnType<typeof setTimeout> }>();

/** Gathers one notice; the toast follows UPLOAD_NOTICE_GATHER_MS after the first of its group. */
export function gatherUploadNotice(notice: UploadNotice): void {
  const key = `${String(notice.user.id ?? '')}|${notice.uploadPath}|${notice.branch}`;
  const group = pending.get(key);
  if (group) {
    group.notices.push(notice);
    return;
  }
  const timer = setTimeout(() => {
    const done = pending.get(key);
    pending.delete(key);
    if (done) toasts.info(uploadNoticeMessage(done.notices));
  }, UPLOAD_NOTICE_GATHER_MS);
  pending.set(key, { notices: [notice], timer });
}
