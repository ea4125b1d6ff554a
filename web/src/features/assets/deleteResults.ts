/** Reading the per-item answers of a delete (spec 2 §3 "Delete result"). */
import type { DeleteResult } from '../../api/assets';

export interface DeleteFailure {
  file: string;
  message: string;
  /** The files that still use the asset. */
  referencedBy: string[];
}

/** The failed items with their message and referencing files (error.error is a JSON string). */
export function deleteFailures(results: readonly DeleteResult[]): DeleteFailure[] {
  return results
    .filter((r) => !r.result)
    .map((r) => {
      let message = 'An unknown error occurred';
      let referencedBy: string[] = [];
      try {
        const parsed = JSON.parse(r.error?.error ?? '{}') as { errorMessage?: string; data?: unknown };
        if (parsed.errorMessage) message = parsed.errorMessage;
        if (Array.isArray(parsed.data)) referencedBy = parsed.data.map(String);
      } catch {
        if (r.error?.error) message = r.error.error;
      }
      return { file: r.file, message, referencedBy };
    });
}
