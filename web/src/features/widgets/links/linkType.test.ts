import { describe, expect, it } from 'vitest';
import {
  captchaLink,
  detectLinkType,
  internalLink,
  micrositeSlug,
  micrositeTarget,
  parseCaptchaLink,
  parseInternalLink,
  validateExternalUrl,
  validateUrl,
} from './linkType';

describe('detectLinkType (spec 2 §4, rules in order)', () => {
  it("'#/' with '/captcha-page/' is External", () => {
    expect(detectLinkType('#/captcha/captcha-page/oops/https%3A%2F%2Fx.org')).toBe('External');
  });
  it("other '#/' links are Internal, even when they contain http or microsites/", () => {
    expect(detectLinkType('#/home')).toBe('Internal');
    expect(detectLinkType('#/home?next=http://x.org')).toBe('Internal');
    expect(detectLinkType('#/microsites/x')).toBe('Internal');
  });
  it("anything containing 'http' is External, before microsites/", () => {
    expect(detectLinkType('https://example.com')).toBe('External');
    expect(detectLinkType('http://example.com/microsites/a/index.html')).toBe('External');
    expect(detectLinkType('see-http-thing')).toBe('External');
  });
  it("containing 'microsites/' is MicroSite", () => {
    expect(detectLinkType('microsites/crew-app/index.html')).toBe('MicroSite');
  });
  it('anything else is Asset (the empty value too)', () => {
    expect(detectLinkType('docs/manual.pdf')).toBe('Asset');
    expect(detectLinkType('#home')).toBe('Asset');
    expect(detectLinkType('')).toBe('Asset');
  });
});

describe('link formats', () => {
  it('writes and reads captcha links with the URL encoded', () => {
    const link = { captchaPageId: 'captcha', errorPageId: 'oops', url: 'https://x.org/a?b=c&d=e' };
    const value = captchaLink(link);
    expect(value).toBe('#/captcha/captcha-page/oops/https%3A%2F%2Fx.org%2Fa%3Fb%3Dc%26d%3De');
    expect(detectLinkType(value)).toBe('External');
    expect(parseCaptchaLink(value)).toEqual(link);
    expect(parseCaptchaLink('#/home')).toBeNull();
    expect(parseCaptchaLink('https://x.org')).toBeNull();
  });

  it('writes microsite targets with the name lowercased and non-word characters dashed', () => {
    expect(micrositeSlug('Crew App (v2)')).toBe('crew-app--v2-');
    expect(micrositeTarget('Crew App')).toBe('microsites/crew-app/index.html');
    expect(micrositeTarget('My_Site.1')).toBe('microsites/my_site-1/index.html');
    expect(detectLinkType(micrositeTarget('Crew App'))).toBe('MicroSite');
  });

  it('writes and reads internal links with parameters', () => {
    expect(internalLink({ pageId: 'home', params: {} })).toBe('#/home');
    const value = internalLink({ pageId: 'home', params: { airport: 'EGLL', gate: '', note: 'a b&c' } });
    expect(value).toBe('#/home?airport=EGLL&note=a%20b%26c');
    expect(detectLinkType(value)).toBe('Internal');
    expect(parseInternalLink(value)).toEqual({ pageId: 'home', params: { airport: 'EGLL', note: 'a b&c' } });
    expect(parseInternalLink('#/home')).toEqual({ pageId: 'home', params: {} });
    expect(parseInternalLink('#/a?x=1&y')).toEqual({ pageId: 'a', params: { x: '1', y: '' } });
    expect(parseInternalLink('pages/a.html')).toBeNull();
    expect(parseInternalLink('#/c/captcha-page/e/u')).toBeNull();
  });
});

describe('URL rules (spec 2 §5 "Links")', () => {
  const invalid = 'Please make sure the URL is valid and starts with http:// or https://';
  it('the URL validator: empty passes, else http:// or https://', () => {
    expect(validateUrl('')).toBeNull();
    expect(validateUrl('https://example.com')).toBeNull();
    expect(validateUrl('http://example.com/x')).toBeNull();
    expect(validateUrl('ftp://example.com')).toBe(invalid);
    expect(validateUrl('example.com')).toBe(invalid);
  });
  it('an external link is required', () => {
    expect(validateExternalUrl('')).toBe('Please enter a URL');
    expect(validateExternalUrl('www.x.org')).toBe(invalid);
    expect(validateExternalUrl('https://x.org')).toBeNull();
  });
});
