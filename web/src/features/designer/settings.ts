/**
 * The designer's editor settings (spec 2 §9), kept in localStorage: scale, media query, border
 * size and colour. The theme is the editors' own (EDITOR_THEME_KEY, shared with the source mode).
 */
import { create } from 'zustand';

export const DESIGNER_SETTINGS_KEY = 'portalwright.designer.settings';
export const SCALES = [100, 90, 80, 70, 60, 50, 40] as const;
/** 0 is 'Disable'. */
export const BORDER_SIZES = [0, 1, 2, 3, 4] as const;
export const DEFAULT_BORDER_COLOR = '#948282';
export const FULL_SIZE = 'Full Size';
/** Left panel minimum width and tooltip/editor maximum height (px). */
export const LEFT_PANEL_MIN_WIDTH = 240;
export const EDITOR_MAX_HEIGHT = 200;

export interface DesignerSettings {
  scale: number;
  mediaQuery: string;
  borderSize: number;
  borderColor: string;
}

export const DEFAULT_SETTINGS: DesignerSettings = {
  scale: 100,
  mediaQuery: FULL_SIZE,
  borderSize: 1,
  borderColor: DEFAULT_BORDER_COLOR,
};

const isColor = (v: unknown): v is string => typeof v === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(v);

/** The stored settings, each one checked (anything odd falls back to its default). */
export function readSettings(): DesignerSettings {
  try {
    const raw = JSON.parse(
      window.localStorage.getItem(DESIGNER_SETTINGS_KEY) ?? 'null',
    ) as Partial<DesignerSettings> | null;
    if (!raw || typeof raw !== 'object') return { ...DEFAULT_SETTINGS };
    return {
      scale: (SCALES as readonly number[]).includes(Number(raw.scale)) ? Number(raw.scale) : DEFAULT_SETTINGS.scale,
      mediaQuery: typeof raw.mediaQuery === 'string' && raw.mediaQuery ? raw.mediaQuery : FULL_SIZE,
      borderSize: (BORDER_SIZES as readonly number[]).includes(Number(raw.borderSize))
        ? Number(raw.borderSize)
        : DEFAULT_SETTINGS.borderSize,
      borderColor: isColor(raw.borderColor) ? raw.borderColor : DEFAULT_BORDER_COLOR,
    };
  } catch {
    return { ...DEFAULT_SETTINGS };
  }
}

export function writeSettings(settings: DesignerSettings): void {
  try {
    window.localStorage.setItem(DESIGNER_SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Blocked storage: the settings apply for this visit only.
  }
}

interface SettingsStore extends DesignerSettings {
  update: (patch: Partial<DesignerSettings>) => void;
  reload: () => void;
}

export const useDesignerSettings = create<SettingsStore>((set, get) => ({
  ...readSettings(),
  update: (patch) => {
    const { scale, mediaQuery, borderSize, borderColor } = { ...get(), ...patch };
    const next = { scale, mediaQuery, borderSize, borderColor };
    writeSettings(next);
    set(next);
  },
  reload: () => set(readSettings()),
}));

/** The frame width a media query asks for (its max-width, else its min-width), null for full size. */
export function mediaQueryWidth(query: string): number | null {
  if (!query || query === FULL_SIZE) return null;
  const max = /max-width\s*:\s*(\d+(?:\.\d+)?)px/i.exec(query);
  if (max) return Math.round(Number(max[1]));
  const min = /min-width\s*:\s*(\d+(?:\.\d+)?)px/i.exec(query);
  if (min) return Math.round(Number(min[1]));
  return null;
}

/**
 * The media queries offered: 'Full Size', then those of the portal's configuration
 * (portal.json `mediaQueries`: a list of strings or {name?, query}, or a map name → query),
 * then those the loaded widgets use. Answers [label, query] pairs.
 */
export function mediaQueryOptions(portalJson: unknown, widgetQueries: readonly string[] = []): [string, string][] {
  const out: [string, string][] = [[FULL_SIZE, FULL_SIZE]];
  const seen = new Set<string>([FULL_SIZE]);
  const add = (label: string, query: string) => {
    if (!query || seen.has(query)) return;
    seen.add(query);
    out.push([label || query, query]);
  };
  const config =
    portalJson && typeof portalJson === 'object' ? (portalJson as Record<string, unknown>).mediaQueries : null;
  if (Array.isArray(config)) {
    for (const entry of config) {
      if (typeof entry === 'string') add(entry, entry);
      else if (entry && typeof entry === 'object') {
        const e = entry as Record<string, unknown>;
        if (typeof e.query === 'string') add(typeof e.name === 'string' ? e.name : e.query, e.query);
      }
    }
  } else if (config && typeof config === 'object') {
    for (const [name, query] of Object.entries(config as Record<string, unknown>))
      if (typeof query === 'string') add(name, query);
  }
  for (const q of widgetQueries) add(q, q);
  return out;
}
