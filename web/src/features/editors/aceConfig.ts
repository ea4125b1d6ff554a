/**
 * The editor's theme list (spec 2 §9: 34 editor themes, the 12th, XCode, by default) and its
 * modes. A file's mode is the server's (an Asset's `editorMode`, from its file type table); the
 * mode list is generated from that table. Plain data: the Ace code itself is only loaded by
 * AceField's chunk.
 */
import { ACE_MODES, type AceMode } from './aceModes.generated';

export { ACE_MODES, type AceMode };

/** The Ace mode the server named for a file; 'text' when it named none (a binary) or one unknown here. */
export function aceMode(mode: unknown): AceMode {
  return typeof mode === 'string' && (ACE_MODES as readonly string[]).includes(mode) ? (mode as AceMode) : 'text';
}

/**
 * Whether Ace's behaviours (auto-closing) run for a mode: not for markup, where Ace inserts the
 * closing tag on '>' and an author who types the closing tag in full gets it twice (issue 22).
 */
export function autoClosing(mode: string): boolean {
  return mode !== 'html' && mode !== 'xml' && mode !== 'markdown';
}

/** [id (theme-<id>.js), label]: Ace's classic theme list, bright first, so XCode is the 12th. */
export const ACE_THEMES: readonly (readonly [string, string])[] = [
  ['chrome', 'Chrome'],
  ['clouds', 'Clouds'],
  ['crimson_editor', 'Crimson Editor'],
  ['dawn', 'Dawn'],
  ['dreamweaver', 'Dreamweaver'],
  ['eclipse', 'Eclipse'],
  ['github', 'GitHub'],
  ['iplastic', 'IPlastic'],
  ['solarized_light', 'Solarized Light'],
  ['textmate', 'TextMate'],
  ['tomorrow', 'Tomorrow'],
  ['xcode', 'XCode'],
  ['kuroir', 'Kuroir'],
  ['katzenmilch', 'KatzenMilch'],
  ['sqlserver', 'SQL Server'],
  ['ambiance', 'Ambiance'],
  ['chaos', 'Chaos'],
  ['clouds_midnight', 'Clouds Midnight'],
  ['cobalt', 'Cobalt'],
  ['idle_fingers', 'idle Fingers'],
  ['kr_theme', 'krTheme'],
  ['merbivore', 'Merbivore'],
  ['merbivore_soft', 'Merbivore Soft'],
  ['mono_industrial', 'Mono Industrial'],
  ['monokai', 'Monokai'],
  ['pastel_on_dark', 'Pastel on dark'],
  ['solarized_dark', 'Solarized Dark'],
  ['terminal', 'Terminal'],
  ['tomorrow_night', 'Tomorrow Night'],
  ['tomorrow_night_blue', 'Tomorrow Night Blue'],
  ['tomorrow_night_bright', 'Tomorrow Night Bright'],
  ['tomorrow_night_eighties', 'Tomorrow Night 80s'],
  ['twilight', 'Twilight'],
  ['vibrant_ink', 'Vibrant Ink'],
];

export const DEFAULT_ACE_THEME = ACE_THEMES[11][0];
