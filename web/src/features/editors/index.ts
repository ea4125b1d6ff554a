/** The workspace file editors: the source editor (Ace, lazily loaded) and the schema-driven JSON editor. */
export { SourceEditor, type SourceEditorProps } from './SourceEditor';
export { JsonEditor, type JsonEditorProps } from './JsonEditor';
export type { AssetKind, JsonFormContext } from './LinkTextWidget';
export { EDITOR_MESSAGES } from './messages';
export { EDITOR_THEME_KEY } from './useEditorTheme';
// The schema helpers other features render @rjsf forms with (conflict resolution's field widgets).
export { normalizeSchema } from './normalizeSchema';
export { jsonValidator, transformErrors } from './jsonValidation';
