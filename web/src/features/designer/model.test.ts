import { describe, expect, it } from 'vitest';
import { portalKeys } from '../../api/portal';
import { sitemap } from '../widgets/fixtures';
import {
  batchFailureMessage,
  designerPageTitle,
  FRAME_EPOCH,
  frameBaseOf,
  frameEpochKey,
  instanceQueryList,
  outlineBorder,
  pageLabelOf,
  surfaceSize,
  widgetMediaQueries,
} from './model';

describe('the designer screen', () => {
  it("takes the frame's base from portal.json, the portal's language mode when it has none", () => {
    const json = {
      taskRunnerSettings: { active: true, outputPath: 'out' },
      languageSettings: { languageMode: 'MULTILANGUAGE' },
    };
    expect(frameBaseOf(json, 'TRANSLATION', 'fr_FR')).toEqual({
      taskRunnerActive: true,
      outputPath: 'out',
      languageMode: 'MULTILANGUAGE',
      language: 'fr_FR',
    });
    expect(frameBaseOf({}, 'TRANSLATION', 'en_GB')).toEqual({
      taskRunnerActive: false,
      outputPath: null,
      languageMode: 'TRANSLATION',
      language: 'en_GB',
    });
    expect(frameBaseOf(undefined, undefined, 'en_GB')).toMatchObject({ taskRunnerActive: false, languageMode: null });
    expect(frameBaseOf({ taskRunnerSettings: { active: 'yes', outputPath: 3 } }, null, 'en_GB')).toMatchObject({
      taskRunnerActive: false,
      outputPath: null,
    });
  });

  it('titles the page by its label, the master page by name, an unknown page by its id', () => {
    expect(designerPageTitle(sitemap.children?.[0], 'home')).toBe('Home');
    expect(designerPageTitle(null, 'master-page')).toBe('Master Page');
    expect(designerPageTitle(undefined, 'gone')).toBe('gone');
    expect(pageLabelOf(sitemap, 'news')).toBe('News');
    expect(pageLabelOf(sitemap, 'under-secret')).toBe('under-secret');
    expect(pageLabelOf(sitemap, '')).toBeNull();
    expect(pageLabelOf(sitemap, 'missing')).toBeNull();
  });

  it('keys the frame epoch under the workspace', () => {
    expect(frameEpochKey('1', '2')).toEqual([...portalKeys.workspace('1', '2'), FRAME_EPOCH]);
  });

  it("offers the widgets' and their instances' media queries, each once", () => {
    const list = instanceQueryList([
      { '(max-width: 600px)': {} },
      undefined,
      { '(min-width: 1200px)': {}, '(max-width: 600px)': {} },
    ]);
    expect(list).toBe('(max-width: 600px)\n(max-width: 600px)\n(min-width: 1200px)');
    expect(
      widgetMediaQueries({ a: { query: '(max-width: 600px)' }, b: { query: '' }, c: { query: 'print' } }, list),
    ).toEqual(['(max-width: 600px)', 'print', '(min-width: 1200px)']);
    expect(widgetMediaQueries({}, instanceQueryList([]))).toEqual([]);
  });

  it('lists the items a batch refused, one line each', () => {
    expect(
      batchFailureMessage([
        { id: 'hero', error: { errorMessage: 'The file changed' } },
        { id: 'footer', error: null },
      ]),
    ).toBe('hero: The file changed\nfooter: ');
  });

  it('outlines widgets by the settings, the selected one thicker', () => {
    const settings = { borderSize: 2, borderColor: '#f00' };
    expect(outlineBorder(settings, false)).toBe('2px dashed #f00');
    expect(outlineBorder(settings, true)).toBe('3px solid #f00');
    expect(outlineBorder({ borderSize: 0, borderColor: '#f00' }, true)).toBe('none');
  });

  it('scales the surface, at the media query width when there is one', () => {
    expect(surfaceSize(50, 768)).toEqual({ scale: 0.5, width: '768px', height: '200%', minHeight: '1200px' });
    expect(surfaceSize(100, null)).toEqual({ scale: 1, width: '100%', height: '100%', minHeight: '600px' });
  });
});
