/**
 * The Ace editor itself. Only ever imported lazily (SourceEditor's React.lazy), so Ace and
 * react-ace stay out of the app shell; the mode and theme modules load on demand too.
 */
import type { Ace } from 'ace-builds';
import { useEffect, useRef, useState } from 'react';
import AceEditor from 'react-ace';
import { Loading } from '../../ui/Loading';
import { autoClosing, type AceMode } from './aceConfig';
import { MODE_LOADERS, THEME_LOADERS } from './aceLoaders';

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
  const loaded = !!ready;
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
      setOptions={{ useWorker: false, tabSize: 2, behavioursEnabled: autoClosing(ready.mode) }}
      annotations={annotations}
      onLoad={(loadedEditor) => {
        editor.current = loadedEditor;
        loadedEditor.textInput.getElement().setAttribute('aria-label', label);
      }}
    />
  );
}
