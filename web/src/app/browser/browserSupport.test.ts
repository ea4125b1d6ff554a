import { describe, expect, it } from 'vitest';
import { classifyBrowser, isSupportedBrowser } from './browserSupport';

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headlessChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  edgeChromium:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.51',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  ie11: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  ie10: 'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)',
  legacyEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
};

describe('browser support', () => {
  it.each(['chrome', 'headlessChrome', 'edgeChromium', 'opera', 'chromeIos', 'firefox', 'firefoxIos'] as const)(
    'supports %s',
    (name) => {
      expect(isSupportedBrowser(UA[name])).toBe(true);
    },
  );

  it('flags Internet Explorer', () => {
    expect(classifyBrowser(UA.ie11)).toBe('ie');
    expect(classifyBrowser(UA.ie10)).toBe('ie');
  });

  it('flags the old EdgeHTML Edge even though it claims Chrome', () => {
    expect(classifyBrowser(UA.legacyEdge)).toBe('legacy-edge');
  });

  it('flags Safari that is not Chrome-based', () => {
    expect(classifyBrowser(UA.safari)).toBe('safari');
  });

  it('does not flag a browser it cannot identify', () => {
    expect(isSupportedBrowser('SomeBot/1.0')).toBe(true);
  });
});
