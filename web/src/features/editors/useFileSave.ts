import type { Id } from '../../api/portal';
import { readFileText, saveFileText } from './fileApi';
import { useMergingSave, type FileBase } from './useMergingSave';

export { saveFailureMessage } from '../../api/errors';

/**
 * Saves a workspace file (the asset service) with the version its edit started from (If-Match).
 * A stale version (409 FILE_CHANGED) merges the edit into the current file (useMergingSave);
 * other failures show the danger toast 'Failed to save changes'.
 */
export function useFileSave(domain: Id, portal: Id, path: string, onLoad: (text: string, base: FileBase) => void) {
  return useMergingSave({
    domain,
    portal,
    path,
    write: async (text, version) => {
      const saved = await saveFileText(domain, portal, path, text, version);
      return saved.version ?? saved.data?.version ?? null;
    },
    read: async () => {
      const fresh = await readFileText(domain, portal, path);
      return { text: fresh.data, version: fresh.version };
    },
    onLoad,
  });
}
