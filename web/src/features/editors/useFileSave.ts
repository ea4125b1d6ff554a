import { useRef, useState } from 'react';
import { isFileChanged } from '../../api/client';
import type { Id } from '../../api/portal';
import { toApiError } from '../../api/errors';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../app/toasts/toastService';
import { readFileText, saveFileText, type FileText } from './fileApi';
import { EDITOR_MESSAGES } from './messages';

/** The message of a failed save: a content-rule failure names its first rule (spec 2 §8). */
export function saveFailureMessage(error: unknown): string {
  const apiError = toApiError(error);
  if (apiError.hasCode('CONTENT_VALIDATION_FAILED') || apiError.errorCodeDesc === 'CONTENT_VALIDATION_FAILED') {
    const rules = (apiError.data as { ruleErrors?: { message?: string }[] } | null)?.ruleErrors;
    const first = rules?.find((rule) => rule.message)?.message;
    if (first) return first;
  }
  return apiError.errorMessage;
}

/**
 * Saves a file with the version its edit started from (If-Match). A stale version (409
 * FILE_CHANGED) opens the conflict choice instead of overwriting; other failures show the
 * danger toast 'Failed to save changes'.
 */
export function useFileSave(domain: Id, portal: Id, path: string) {
  const [saving, setSaving] = useState(false);
  // A second click before the re-render must not send the same version again (it would come
  // back as a conflict with the first save).
  const running = useRef(false);
  const [conflict, setConflict] = useState(false);
  const [reloading, setReloading] = useState(false);

  /** The saved file's new version, or undefined when the save did not happen. */
  async function save(text: string, version: string | null): Promise<{ version: string | null } | undefined> {
    if (running.current) return undefined;
    running.current = true;
    setSaving(true);
    try {
      const saved = await saveFileText(domain, portal, path, text, version);
      return { version: saved.version ?? saved.data?.version ?? null };
    } catch (error) {
      if (isFileChanged(error)) setConflict(true);
      else
        toasts.show({
          type: 'DANGER',
          title: EDITOR_MESSAGES.saveFailed,
          message: saveFailureMessage(error),
          timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
          closeButton: true,
        });
      return undefined;
    } finally {
      running.current = false;
      setSaving(false);
    }
  }

  /** Reads the file again and hands it to `apply`; the dialog closes once it is applied. */
  async function reload(apply: (fresh: FileText) => void) {
    setReloading(true);
    try {
      apply(await readFileText(domain, portal, path));
      setConflict(false);
    } catch (error) {
      toasts.show({ type: 'DANGER', title: EDITOR_MESSAGES.loadFailed, message: toApiError(error).errorMessage });
    } finally {
      setReloading(false);
    }
  }

  return { save, saving, conflict, reloading, reload, dismissConflict: () => setConflict(false) };
}
