/**
 * The upload dialog's rules for adding files (spec 2 §5 "Uploads and assets"), kept pure so
 * they are tested on their own: allowed name characters, allowed extensions, duplicates, files
 * that already exist, the per-type size limit and the 399mb total.
 */
import { extensionOf, type SizeLimits } from '../../api/assets';
import { formatSize } from '../../lib/format';
import { ASSET_MESSAGES, TOTAL_UPLOAD_LIMIT_BYTES } from './messages';
import { FILE_NAME } from '../../lib/rules.generated';

export type UploadStatus = 'QUEUED' | 'UPLOADING' | 'ERRORED' | 'UPLOADED' | 'CANCELLED';

/** A file of the upload dialog (spec 2 §3 "Uploaded file"). */
export interface UploadItem {
  id: string;
  file: File;
  name: string;
  size: number;
  type: string;
  /** A file of that name is already in the folder (it will be overwritten). */
  exists: boolean;
  status: UploadStatus;
  /** 0–100. */
  progress: number;
  error?: string;
}

/** Letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ . only. */
const NAME_RULE = FILE_NAME;

export const hasAllowedName = (name: string) => NAME_RULE.test(name);

/** The size limit of a file's type: the group whose extensions list it, else the default. */
export function typeLimitBytes(limits: SizeLimits, name: string): number | null {
  const ext = extensionOf(name);
  const { image, video, pdf, default: fallback } = limits.portal;
  for (const group of [image, video, pdf]) {
    if (group?.assocExts.some((e) => e.toLowerCase() === ext)) return group.sizeLimitBytes;
  }
  return fallback?.sizeLimitBytes ?? null;
}

export function isAllowedExtension(limits: SizeLimits | undefined, name: string): boolean {
  if (!limits || limits.allowedExtensions.length === 0) return true;
  const ext = extensionOf(name);
  return limits.allowedExtensions.some((e) => e.toLowerCase().replace(/^\./, '') === ext);
}

const sameFile = (item: UploadItem, file: File) =>
  item.name === file.name && item.size === file.size && item.type === file.type;

export interface AddedFiles {
  items: UploadItem[];
  /** The spec's warnings (special characters, already exist), each once. */
  warnings: string[];
  /** One per refused file (type, size, total). */
  errors: string[];
}

let nextId = 1;

/** Adds `files` to the dialog's list by the spec's rules. */
export function addFiles(
  current: readonly UploadItem[],
  files: readonly File[],
  existingNames: ReadonlySet<string>,
  limits: SizeLimits | undefined,
): AddedFiles {
  const items = [...current];
  const warnings = new Set<string>();
  const errors: string[] = [];
  const totalLimit = limits?.totalLimitBytes || TOTAL_UPLOAD_LIMIT_BYTES;
  let total = items.reduce((sum, item) => sum + item.size, 0);
  for (const file of files) {
    if (items.some((item) => sameFile(item, file))) continue;
    if (!hasAllowedName(file.name)) {
      warnings.add(ASSET_MESSAGES.specialCharacters);
      continue;
    }
    if (!isAllowedExtension(limits, file.name)) {
      errors.push(ASSET_MESSAGES.typeNotAllowed(file.name));
      continue;
    }
    const typeLimit = limits ? typeLimitBytes(limits, file.name) : null;
    if (typeLimit !== null && file.size > typeLimit) {
      errors.push(ASSET_MESSAGES.overTypeLimit(file.name, formatSize(typeLimit)));
      continue;
    }
    if (total + file.size > totalLimit) {
      errors.push(ASSET_MESSAGES.overTotalLimit(file.name));
      continue;
    }
    const exists = existingNames.has(file.name);
    if (exists) warnings.add(ASSET_MESSAGES.alreadyExist);
    total += file.size;
    items.push({
      id: `upload-${String(nextId++)}`,
      file,
      name: file.name,
      size: file.size,
      type: file.type,
      exists,
      status: 'QUEUED',
      progress: 0,
    });
  }
  return { items, warnings: [...warnings], errors };
}

/** Progress in percent, clamped to 0–100 (spec 2 §5). */
export function clampProgress(loaded: number, total: number): number {
  if (!Number.isFinite(loaded) || !Number.isFinite(total) || total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}

interface ErrorObjectLike {
  errorCodeDesc?: string;
  errorMessage?: string;
  data?: { ruleErrors?: Array<{ message?: string }> } | unknown;
}

/**
 * The message of a file's upload error: the first rule error of CONTENT_VALIDATION_FAILED,
 * otherwise the error message (spec 2 §8). `error` is the JSON string the server sends or an
 * error object.
 */
export function uploadErrorMessage(error: string | ErrorObjectLike | null | undefined): string {
  let parsed: ErrorObjectLike | null = null;
  if (typeof error === 'string') {
    try {
      parsed = JSON.parse(error) as ErrorObjectLike;
    } catch {
      return error || 'An unknown error occurred';
    }
  } else parsed = error ?? null;
  if (!parsed) return 'An unknown error occurred';
  if (parsed.errorCodeDesc === 'CONTENT_VALIDATION_FAILED') {
    const rules = (parsed.data as { ruleErrors?: Array<{ message?: string }> } | null)?.ruleErrors;
    const first = rules?.find((r) => r.message)?.message;
    if (first) return first;
  }
  return parsed.errorMessage || 'An unknown error occurred';
}
