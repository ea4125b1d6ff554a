/**
 * The rich-text field (spec 2 §2 "Other field widgets", §4 "Links"): TipTap with a small toolbar
 * (bold, italic, lists, link). TipTap is loaded lazily, so the shell bundle does not grow.
 *
 * - value / onChange carry HTML sanitised by lib/sanitizeHtml (links normalised: mailto and #
 *   kept, no scheme → '//', others target=_blank rel="noopener noreferrer").
 * - onChange fires only for the user's edits; a plain-text value (no markup) stays plain text
 *   while it is one plain paragraph, so opening a text and not editing it changes nothing.
 * - The editable area is a textbox named `ariaLabel` with `dir` and `spellcheck`.
 */
import { lazy, Suspense } from 'react';
import { Loading } from '../../../ui/Loading';

export interface RichTextEditorProps {
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  dir?: 'ltr' | 'rtl';
  spellCheck?: boolean;
  /** The accessible name of the textbox (and of its toolbar: '<name> formatting'). */
  ariaLabel: string;
  /** Minimum height of the editing area in px. */
  minHeight?: number;
}

const TipTapEditor = lazy(() => import('./TipTapEditor'));

export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<Loading label="Loading the editor" />}>
      <TipTapEditor {...props} />
    </Suspense>
  );
}

export default RichTextEditor;
