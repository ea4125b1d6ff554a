/** The workspace file editors: the source editor (Ace, lazily loaded) and the schema-driven JSON editor. */
export { SourceEditor, type SourceEditorProps } from './SourceEditor';
export { JsonEditor, type JsonEditorProps } from './JsonEditor';
export type { AssetKind, JsonFormContext } from './LinkTextWidget';
export { EDITOR_MESSAGES } from './messages';
export { EDITOR_THEME_KEY, useEditorTheme } from './useEditorTheme';
export { ACE_THEMES } from './aceConfig';
// Loaded on first render (render it inside a Suspense): ace-builds stays in its own chunk.
export { AceField, type AceFieldProps } from './LazyAceField';
// Saving a file that another user may have changed meanwhile (a stale version).
export { ConflictDialog, type ConflictDialogProps } from './ConflictDialog';
export { MergeDialog, type MergeDialogProps } from './MergeDialog';
export { useMergingSave, type FileBase } from './useMergingSave';
// An open editor's reload after Revert All, Revert To, Reset and Reload Now (page source mode too).
export { useWorkspaceReload, type FileText } from './fileApi';
// The schema helpers other features render @rjsf forms with (conflict resolution's field widgets).
export { normalizeSchema } from './normalizeSchema';
export { jsonValidator, transformErrors } from './jsonValidation';
