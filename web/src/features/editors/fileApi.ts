/**
 * The editors' file calls, on top of api/assets.ts: a file's text with its version, and a
 * schema read that tells "no schema" (404) from a failure.
 */
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useWorkspaceEpoch } from '../../core/workspaceRefresh';
import { assetApi, assetKeys } from '../../api/assets';
import { ApiError } from '../../api/client';
import type { Versioned } from '../../api/client';
import type { Id } from '../../api/portal';

/** A file's text and the version it was read at. */
export type FileText = Versioned<string>;

export async function readFileText(d: Id, p: Id, path: string): Promise<FileText> {
  const { data, version } = await assetApi.source(d, p, path);
  return { data: typeof data === 'string' ? data : data == null ? '' : JSON.stringify(data), version };
}

/** The companion schema's text, or null when the file has none (404). */
export async function readSchemaText(d: Id, p: Id, path: string): Promise<string | null> {
  try {
    return (await readFileText(d, p, `${path}.schema`)).data;
  } catch (error) {
    if (error instanceof ApiError && error.httpStatus === 404) return null;
    throw error;
  }
}

export const editorKeys = {
  file: (d: Id, p: Id, path: string) => [...assetKeys.all(d, p), 'editor-file', path] as const,
  schema: (d: Id, p: Id, path: string) => [...assetKeys.all(d, p), 'editor-schema', path] as const,
  meta: (d: Id, p: Id, path: string) => [...assetKeys.all(d, p), 'editor-meta', path] as const,
};

/**
 * The file's answer read one by one (its Asset): the server says the editor's Ace mode
 * (`editorMode`, its file type table) and whether a save must be strict JSON (`strictJson`).
 */
export function useFileMeta(d: Id, p: Id, path: string) {
  return useQuery({
    queryKey: editorKeys.meta(d, p, path),
    queryFn: () => assetApi.meta(d, p, path),
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/**
 * The file being edited. staleTime 0 and no refetch on focus: the editor's version must come
 * from the read the edit started from; reloads happen on the user's choice (the conflict dialog).
 */
export function useFileText(d: Id, p: Id, path: string) {
  return useQuery({
    queryKey: editorKeys.file(d, p, path),
    queryFn: () => readFileText(d, p, path),
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

export const saveFileText = (d: Id, p: Id, path: string, text: string, version: string | null) =>
  assetApi.saveSource(d, p, path, text, version);

/**
 * An open editor after Revert All, Revert To, Reset, Reload Now or a branch switch (the
 * workspace epoch moves on, core/workspaceRefresh.ts): the file is read again; an
 * editor with no unsaved edit shows the new text at once (`formKey` changes: remount the form
 * with `file.data`), one with an unsaved edit keeps it and is told (`changed`), with `reload`
 * to load the file without the edit. `base` is the version the form's edit is based on.
 * A query of something other than a FileText (page source mode: a Page) passes `asText`.
 */
export function useWorkspaceReload<T = FileText>(
  file: UseQueryResult<T>,
  isDirty: () => boolean,
  base: () => FileText | null,
  asText: (data: T) => FileText = (data) => data as FileText,
) {
  const epoch = useWorkspaceEpoch((s) => s.epoch);
  const seen = useRef(epoch);
  const [formKey, setFormKey] = useState(0);
  const [changed, setChanged] = useState(false);
  const refetch = useRef(file.refetch);
  refetch.current = file.refetch;
  const dirtyRef = useRef(isDirty);
  dirtyRef.current = isDirty;
  const baseRef = useRef(base);
  baseRef.current = base;
  const asTextRef = useRef(asText);
  asTextRef.current = asText;
  useEffect(() => {
    if (epoch === seen.current) return;
    seen.current = epoch;
    void refetch.current().then((result) => {
      const now = result.data === undefined ? undefined : asTextRef.current(result.data);
      const from = baseRef.current();
      if (!now || (from && from.version === now.version && from.data === now.data)) return;
      if (dirtyRef.current()) setChanged(true);
      else setFormKey((k) => k + 1);
    });
  }, [epoch]);
  return {
    formKey,
    changed,
    reload: () => {
      setChanged(false);
      void refetch.current().then(() => setFormKey((k) => k + 1));
    },
  };
}
