/**
 * The editors' save with merge on conflict (issue 21 item 3). A save sends the version its edit
 * started from; when the file changed meanwhile (409 FILE_CHANGED) the edit is merged into the
 * current file on the server (POST /workspace-merge) instead of being put on top of it, so other
 * authors' changes to fields the author never touched are kept:
 *
 * - a clean merge is saved at once with the current version (an info toast says so); a save that
 *   meets yet another change merges again, at most MAX_MERGE_ROUNDS times, then the dialog opens;
 * - overlapping changes open the merge dialog listing only those; once each has "Keep mine" or
 *   "Keep theirs", Apply merges with the choices and loads the result into the editor, unsaved;
 * - "Reload and discard my edit" loads the current file.
 *
 * Every editor that saves a whole file's text with a version uses this one hook.
 */
import { useRef, useState } from 'react';
import { isFileChanged } from '../../api/client';
import { saveFailureMessage, toApiError } from '../../api/errors';
import { mergeApi, type MergeResult } from '../../api/merge';
import type { Id } from '../../api/portal';
import { HTTP_ERROR_TOAST_TIMEOUT_MS, toasts } from '../../core/toastService';
import { useAction } from '../../ui/useAction';
import type { MergeDialogProps, MergeTake } from './MergeDialog';
import { EDITOR_MESSAGES as MSG } from './messages';

/** Merges tried after one save before the dialog opens. */
export const MAX_MERGE_ROUNDS = 3;

/** The file as an edit started from: its text and version. */
export interface FileBase {
  text: string;
  version: string | null;
}

/** A save that happened: the text written and the editor's new base. */
export interface SavedText {
  text: string;
  base: FileBase;
  /** True when the text is the merge of the edit with changes made meanwhile. */
  merged: boolean;
}

export interface MergingSaveOptions {
  domain: Id;
  portal: Id;
  /** The file's workspace path (a leading slash is dropped). */
  path: string;
  /** Writes `text` if the file is still at `version`; answers the new version. */
  write: (text: string, version: string | null) => Promise<string | null>;
  /** Reads the file as it is now. */
  read: () => Promise<FileBase>;
  /** Whether a failed write means "the file changed" (default: 409 FILE_CHANGED). */
  isConflict?: (error: unknown) => boolean;
  /** Any other failed write (default: the danger toast 'Failed to save changes'). */
  onFailure?: (error: unknown) => void;
  /** Puts `text` into the editor with `base` as what it is based on (unsaved when they differ). */
  onLoad: (text: string, base: FileBase) => void;
}

export function showSaveFailure(error: unknown): void {
  toasts.show({
    type: 'DANGER',
    title: MSG.saveFailed,
    message: saveFailureMessage(error),
    timeOut: HTTP_ERROR_TOAST_TIMEOUT_MS,
    closeButton: true,
  });
}

/** What the dialog is about: the sides sent to the merge and its last answer. */
interface Pending {
  base: string;
  mine: string;
  /** The last answer (null when the merge call failed). */
  result: MergeResult | null;
  /** Shown instead of the list when there is nothing to choose. */
  message: string | null;
}

const isClean = (r: MergeResult | null): r is MergeResult & { merged: string } =>
  !!r && r.unresolved === 0 && r.merged !== null;

export function useMergingSave(options: MergingSaveOptions) {
  const latest = useRef(options);
  latest.current = options;
  const [pending, setPending] = useState<Pending | null>(null);
  const [choices, setChoices] = useState<Record<string, MergeTake>>({});

  const merge = (body: { base: string; mine: string; choices?: Record<string, { take: MergeTake }> }) => {
    const { domain, portal, path } = latest.current;
    return mergeApi.merge(domain, portal, { path, ...body });
  };

  function open(next: Pending) {
    setChoices({});
    setPending(next);
  }

  /** Loads a clean merge into the editor, based on the file as the merge saw it. */
  function load(result: MergeResult & { merged: string }) {
    latest.current.onLoad(result.merged, { text: result.theirs, version: result.version });
    setPending(null);
    setChoices({});
    toasts.info(MSG.mergedLoaded);
  }

  const saveAction = useAction({
    action: ({ text, base, mine }: { text: string; base: FileBase; mine: string }) => writeOrMerge(text, base, mine),
    failure: MSG.saveFailed,
  });

  /**
   * Saves `text` based on `base`. `mine` is what the merge gets as the edit when it differs from
   * the text written (the JSON form leaves out defaults the author never touched). Answers the
   * save, or undefined when nothing was saved (a failure, or the dialog is open).
   */
  async function save(text: string, base: FileBase, mine: string = text): Promise<SavedText | undefined> {
    // A second click before the re-render must not send the same version again (ActionBusyError).
    return saveAction.submit({ text, base, mine }).catch(() => undefined);
  }

  /** save()'s work: failures are told here (onFailure, the merge dialog), never thrown. */
  async function writeOrMerge(text: string, base: FileBase, mine: string): Promise<SavedText | undefined> {
    const { write, isConflict = isFileChanged, onFailure = showSaveFailure } = latest.current;
    try {
      return { text, base: { text, version: await write(text, base.version) }, merged: false };
    } catch (error) {
      if (!isConflict(error)) {
        onFailure(error);
        return undefined;
      }
    }
    let last: MergeResult | null = null;
    for (let round = 0; round < MAX_MERGE_ROUNDS; round++) {
      try {
        last = await merge({ base: base.text, mine });
      } catch (error) {
        open({ base: base.text, mine, result: null, message: MSG.mergeFailedText(toApiError(error).errorMessage) });
        return undefined;
      }
      if (!isClean(last)) {
        // Nothing to choose and nothing merged: the file was deleted meanwhile.
        const gone = last.unresolved === 0 && last.conflicts.length === 0;
        open({ base: base.text, mine, result: last, message: gone ? MSG.deletedMeanwhile : null });
        return undefined;
      }
      try {
        const version = await write(last.merged, last.version);
        toasts.info(MSG.mergedAndSaved);
        return { text: last.merged, base: { text: last.merged, version }, merged: true };
      } catch (error) {
        if (!isConflict(error)) {
          // The merge is kept in the editor (unsaved) for the author to put right.
          latest.current.onLoad(last.merged, { text: last.theirs, version: last.version });
          onFailure(error);
          return undefined;
        }
      }
    }
    open({ base: base.text, mine, result: last, message: MSG.keptChanging });
    return undefined;
  }

  const apply = useAction({
    action: async () => {
      if (!pending) return;
      const conflicts = pending.result?.conflicts ?? [];
      if (conflicts.length === 0 && isClean(pending.result)) {
        load(pending.result);
        return;
      }
      const picked = Object.fromEntries(conflicts.map((c) => [c.id, { take: choices[c.id] }]));
      const result = await merge({ base: pending.base, mine: pending.mine, choices: picked });
      if (isClean(result)) load(result);
      else {
        // The file changed again and overlaps elsewhere: choose again (known choices stay).
        setPending({ ...pending, result, message: null });
        setChoices((c) => Object.fromEntries(result.conflicts.filter((x) => c[x.id]).map((x) => [x.id, c[x.id]])));
      }
    },
    failure: MSG.mergeFailedTitle,
  });

  const discard = useAction({
    action: () => latest.current.read(),
    failure: MSG.loadFailed,
    onSuccess: (fresh) => {
      latest.current.onLoad(fresh.text, fresh);
      setPending(null);
      setChoices({});
    },
  });

  const conflicts = pending?.result?.conflicts ?? [];
  const busy = apply.pending || discard.pending;
  const dialog: MergeDialogProps = {
    open: pending !== null,
    busy,
    kind: pending?.result?.kind ?? null,
    conflicts,
    message: pending?.message ?? null,
    choices,
    canApply:
      pending !== null && (conflicts.length > 0 ? conflicts.every((c) => choices[c.id]) : isClean(pending.result)),
    onChoose: (id, take) => setChoices((c) => ({ ...c, [id]: take })),
    onApply: () => apply.run(),
    onDiscard: () => discard.run(),
    onCancel: () => !busy && setPending(null),
  };

  return { save, saving: saveAction.pending, dialog, conflict: pending !== null };
}
