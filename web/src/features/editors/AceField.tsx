/**
 * The Ace editor itself. Only ever imported lazily (SourceEditor's React.lazy), so Ace and
 * react-ace stay out of the app shell; the mode and theme modules load on demand too.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Ace } from 'ace-builds';
import { useEffect, useId, useRef, useState } from 'react';
import AceEditor from 'react-ace';
import { Loading } from '../../ui/Loading';
import { releaseTabOnEscape } from '../../ui/releaseTabOnEscape';
import { autoClosing, type AceMode } from './aceConfig';
import { MODE_LOADERS, THEME_LOADERS } from './aceLoaders';
import { EDITOR_MESSAGES } from './messages';

export interface AceFieldProps {
  value: string;
  onChange: (value: string) => void;
  mode: AceMode;
  theme: string;
  readOnly?: boolean;
  /** The accessible name of the text area. */
  label: string;
  /** Gutter marks (readiness findings at their lines; row 0-based). */
  annotations?: Ace.Annotation[];
  /** Moves the cursor to this line (1-based), scrolls it into view and focuses the editor; a new object moves again. */
  goTo?: { line: number } | null;
}

export default function AceField({ value, onChange, mode, theme, readOnly, label, annotations, goTo }: AceFieldProps) {
  // Ace would fetch a missing mode/theme from its own base path (not served): import them first.
  const [ready, setReady] = useState<{ mode: string; theme: string } | null>(null);
  useEffect(() => {
    let active = true;
    void Promise.all([MODE_LOADERS[mode](), (THEME_LOADERS[theme] ?? THEME_LOADERS.xcode)()]).then(() => {
      if (active) setReady({ mode, theme });
    });
    return () => {
      active = false;
    };
  }, [mode, theme]);

  const editor = useRef<Ace.Editor | null>(null);
  const [container, setContainer] = useState<HTMLElement | null>(null);
  const hintId = useId();
  const loaded = !!ready;
  // Tab indents; Escape then Tab leaves (no keyboard trap), as the hint under the editor says.
  useEffect(() => (container ? releaseTabOnEscape(container) : undefined), [container]);
  useEffect(() => {
    const input = editor.current?.textInput.getElement();
    if (!container || !input) return;
    if (readOnly) input.removeAttribute('aria-describedby');
    else input.setAttribute('aria-describedby', hintId);
  }, [container, readOnly, hintId]);
  // react-ace sets the annotations before its options: turning the mode's worker off then
  // clears them (the worker's 'terminate'). Set again once loaded and whenever they change.
  useEffect(() => {
    if (loaded) editor.current?.session.setAnnotations(annotations ?? []);
  }, [loaded, annotations]);
  useEffect(() => {
    const ace = editor.current;
    if (!loaded || !ace || !goTo || !(goTo.line > 0)) return;
    ace.gotoLine(goTo.line, 0, false);
    ace.scrollToLine(goTo.line - 1, true, false, () => undefined);
    ace.focus();
  }, [loaded, goTo]);

  if (!ready) return <Loading label="Loading the editor" />;
  return (
    <Box
      sx={{
        // The focus ring: Ace's own text input is invisible.
        '& .ace_editor.ace_focus': { outline: 2, outlineColor: 'primary.main', outlineOffset: 1 },
      }}
    >
      <AceEditor
        mode={ready.mode}
        theme={ready.theme}
        value={value}
        onChange={onChange}
        readOnly={readOnly}
        name="source-editor"
        width="100%"
        height="60vh"
        fontSize={14}
        showPrintMargin={false}
        editorProps={{ $blockScrolling: true }}
        // The syntax-check workers would be fetched from Ace's base path, which the app does not serve.
        // No auto-closing of tags in markup: an author typing '</p>' in full got '</p></p>'.
        // Ace names its text input by the cursor's row on every move: its label goes first.
        setOptions={{
          useWorker: false,
          tabSize: 2,
          behavioursEnabled: autoClosing(ready.mode),
          textInputAriaLabel: label,
        }}
        annotations={annotations}
        onLoad={(loadedEditor) => {
          editor.current = loadedEditor;
          const input = loadedEditor.textInput.getElement();
          input.setAttribute('aria-label', label);
          setContainer(loadedEditor.container);
        }}
      />
      {!readOnly && (
        <Typography id={hintId} variant="caption" color="text.secondary">
          {EDITOR_MESSAGES.leaveEditorHint}
        </Typography>
      )}
    </Box>
  );
}
