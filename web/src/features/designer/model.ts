/**
 * The designer screen's pure rules: the frame's base options from portal.json, the media queries
 * the settings offer, the message of a partly failed save, the surface's geometry and the widget
 * outlines. The dirty cache is dirty.ts, the property editor's model properties.ts.
 */
import { portalKeys } from '../../api/portal';
import type { SitemapPage } from '../../api/sitemap';
import { findPage, pageLabel } from '../widgets';
import type { DirtyObject } from './dirty';
import { MASTER_PAGE_ID, type FrameBaseOptions, type RegisteredShortCode } from './protocol';
import type { DesignerSettings } from './settings';

/** The query the designer bumps on every workspace refresh (the frame reads the files again). */
export const FRAME_EPOCH = 'designer-frame-epoch';
export const frameEpochKey = (d: string, p: string) => [...portalKeys.workspace(d, p), FRAME_EPOCH] as const;

/** The frame's base options: the task runner's and language settings of portal.json (the portal's mode when absent). */
export function frameBaseOf(
  portalJson: unknown,
  portalLanguageMode: string | null | undefined,
  language: string,
): FrameBaseOptions {
  const json = (portalJson ?? {}) as Record<string, unknown>;
  const runner = (json.taskRunnerSettings ?? {}) as Record<string, unknown>;
  const langs = (json.languageSettings ?? {}) as Record<string, unknown>;
  return {
    taskRunnerActive: runner.active === true,
    outputPath: typeof runner.outputPath === 'string' ? runner.outputPath : null,
    languageMode: typeof langs.languageMode === 'string' ? langs.languageMode : (portalLanguageMode ?? null),
    language,
  };
}

/** The page's title in the designer: its label, 'Master Page', or its id when the sitemap lacks it. */
export function designerPageTitle(page: SitemapPage | null | undefined, pageId: string): string {
  return page ? pageLabel(page) : pageId === MASTER_PAGE_ID ? 'Master Page' : pageId;
}

/** The label of a page of the sitemap, or null. */
export function pageLabelOf(root: Parameters<typeof findPage>[0], id: string): string | null {
  const p = id ? findPage(root, id) : null;
  return p ? pageLabel(p) : null;
}

/** The media queries of the widgets shown and of their instances (each once, in first-seen order). */
export function widgetMediaQueries(
  shortCodes: Record<string, Pick<RegisteredShortCode, 'query'>>,
  instanceQueries: string,
): string[] {
  return [
    ...new Set([...Object.values(shortCodes).map((c) => c.query), ...instanceQueries.split('\n')].filter(Boolean)),
  ];
}

/** The instances' media query names as one sorted string (a stable dependency). */
export const instanceQueryList = (mediaQueries: ReadonlyArray<Record<string, unknown> | undefined>): string =>
  mediaQueries
    .flatMap((q) => Object.keys(q ?? {}))
    .sort()
    .join('\n');

/** The danger toast's message of the items a batch save refused: one line per item. */
export const batchFailureMessage = (failed: readonly Pick<DirtyObject, 'id' | 'error'>[]): string =>
  failed.map((f) => `${f.id}: ${f.error?.errorMessage ?? ''}`).join('\n');

/** A widget's outline: dashed in the border colour, thicker and solid when selected; none at size 0. */
export function outlineBorder(settings: Pick<DesignerSettings, 'borderSize' | 'borderColor'>, selected: boolean) {
  if (selected && settings.borderSize > 0) return `${settings.borderSize + 1}px solid ${settings.borderColor}`;
  return settings.borderSize > 0 ? `${settings.borderSize}px dashed ${settings.borderColor}` : 'none';
}

/** The scaled box the frame is drawn in: the media query's width (else the surface's), scaled. */
export function surfaceSize(scalePercent: number, queryWidth: number | null) {
  const scale = scalePercent / 100;
  return {
    scale,
    width: queryWidth ? `${queryWidth}px` : `${100 / scale}%`,
    height: `${100 / scale}%`,
    minHeight: `${(100 / scale) * 6}px`,
  };
}
