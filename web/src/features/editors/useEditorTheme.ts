import { useState } from 'react';
import { ACE_THEMES, DEFAULT_ACE_THEME } from './aceConfig';

/** The local storage key of the source editor's theme (spec 2 §9: editor preferences are local). */
export const EDITOR_THEME_KEY = 'portalwright.editor.theme';

function readTheme(): string {
  try {
    const stored = window.localStorage.getItem(EDITOR_THEME_KEY);
    if (stored && ACE_THEMES.some(([id]) => id === stored)) return stored;
  } catch {
    // Blocked storage: the default.
  }
  return DEFAULT_ACE_THEME;
}

/** The editor theme, remembered across visits. */
export function useEditorTheme(): [string, (theme: string) => void] {
  const [theme, setTheme] = useState(readTheme);
  const save = (next: string) => {
    setTheme(next);
    try {
      window.localStorage.setItem(EDITOR_THEME_KEY, next);
    } catch {
      // Storage full or blocked: the theme still applies for this visit.
    }
  };
  return [theme, save];
}
