import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  DESIGNER_SETTINGS_KEY,
  FULL_SIZE,
  mediaQueryOptions,
  mediaQueryWidth,
  readSettings,
  useDesignerSettings,
} from './settings';

beforeEach(() => window.localStorage.clear());

describe('designer settings', () => {
  it('defaults: scale 100, Full Size, border 1 in #948282', () => {
    expect(readSettings()).toEqual({ scale: 100, mediaQuery: 'Full Size', borderSize: 1, borderColor: '#948282' });
    expect(DEFAULT_SETTINGS.borderColor).toBe('#948282');
  });

  it('persists every change in localStorage and reads it back', () => {
    useDesignerSettings
      .getState()
      .update({ scale: 70, borderSize: 0, borderColor: '#112233', mediaQuery: '(max-width: 600px)' });
    expect(JSON.parse(window.localStorage.getItem(DESIGNER_SETTINGS_KEY) ?? '{}')).toEqual({
      scale: 70,
      mediaQuery: '(max-width: 600px)',
      borderSize: 0,
      borderColor: '#112233',
    });
    useDesignerSettings.setState({ scale: 100 });
    useDesignerSettings.getState().reload();
    expect(useDesignerSettings.getState().scale).toBe(70);
    expect(readSettings().borderSize).toBe(0);
  });

  it('ignores values outside the lists', () => {
    window.localStorage.setItem(
      DESIGNER_SETTINGS_KEY,
      JSON.stringify({ scale: 33, borderSize: 9, borderColor: 'red', mediaQuery: 5 }),
    );
    expect(readSettings()).toEqual(DEFAULT_SETTINGS);
    window.localStorage.setItem(DESIGNER_SETTINGS_KEY, '{broken');
    expect(readSettings()).toEqual(DEFAULT_SETTINGS);
  });
});

describe('media queries', () => {
  it('gives the frame width of a query; Full Size has no limit', () => {
    expect(mediaQueryWidth(FULL_SIZE)).toBeNull();
    expect(mediaQueryWidth('(max-width: 600px)')).toBe(600);
    expect(mediaQueryWidth('screen and (min-width:1024px)')).toBe(1024);
    expect(mediaQueryWidth('print')).toBeNull();
  });

  it("offers 'Full Size', the portal's configuration, then the widgets' queries", () => {
    expect(mediaQueryOptions(null)).toEqual([[FULL_SIZE, FULL_SIZE]]);
    expect(
      mediaQueryOptions({ mediaQueries: [{ name: 'Phone', query: '(max-width: 600px)' }, '(max-width: 900px)'] }, [
        'Full Size',
        '(max-width: 600px)',
        '(max-width: 400px)',
      ]),
    ).toEqual([
      [FULL_SIZE, FULL_SIZE],
      ['Phone', '(max-width: 600px)'],
      ['(max-width: 900px)', '(max-width: 900px)'],
      ['(max-width: 400px)', '(max-width: 400px)'],
    ]);
    expect(mediaQueryOptions({ mediaQueries: { Tablet: '(max-width: 1024px)' } })).toEqual([
      [FULL_SIZE, FULL_SIZE],
      ['Tablet', '(max-width: 1024px)'],
    ]);
  });
});
