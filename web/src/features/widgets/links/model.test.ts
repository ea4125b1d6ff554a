import { describe, expect, it } from 'vitest';
import { sitemap } from '../fixtures';
import { assetLink, initialLinkState, linkResult, type LinkState } from './model';

const state = (patch: Partial<LinkState>): LinkState => ({ ...initialLinkState(''), ...patch });

describe('the link manager state', () => {
  it('starts on Internal without a value, each type filled only from a value of its type', () => {
    expect(initialLinkState('')).toEqual({
      type: 'Internal',
      internal: { pageId: '', params: {} },
      external: { url: '', captcha: false, captchaPageId: '', errorPageId: '' },
      asset: '',
      microsite: '',
    });
    expect(initialLinkState('#/home?airport=EGLL')).toMatchObject({
      type: 'Internal',
      internal: { pageId: 'home', params: { airport: 'EGLL' } },
    });
    expect(initialLinkState('https://x.org')).toMatchObject({ type: 'External', external: { url: 'https://x.org' } });
    expect(initialLinkState('#/captcha/captcha-page/oops/https%3A%2F%2Fx.org')).toMatchObject({
      type: 'External',
      external: { url: 'https://x.org', captcha: true, captchaPageId: 'captcha', errorPageId: 'oops' },
    });
    expect(initialLinkState('docs/a.pdf')).toMatchObject({ type: 'Asset', asset: 'docs/a.pdf', microsite: '' });
    expect(initialLinkState('microsites/crew/index.html')).toMatchObject({
      type: 'MicroSite',
      microsite: 'microsites/crew/index.html',
    });
  });
});

describe('what Save stores', () => {
  it('needs an internal link with its page and required parameters', () => {
    expect(linkResult(state({ type: 'Internal' }), sitemap)).toEqual({ saveable: false, result: '#/' });
    expect(linkResult(state({ internal: { pageId: 'home', params: {} } }), sitemap).saveable).toBe(false);
    expect(linkResult(state({ internal: { pageId: 'home', params: { airport: 'EGLL' } } }), sitemap)).toEqual({
      saveable: true,
      result: '#/home?airport=EGLL',
    });
    expect(linkResult(state({ internal: { pageId: 'news', params: {} } }), sitemap)).toEqual({
      saveable: true,
      result: '#/news',
    });
  });

  it('needs a valid URL, and with a captcha both pages', () => {
    const external = { url: 'https://x.org', captcha: false, captchaPageId: '', errorPageId: '' };
    expect(linkResult(state({ type: 'External', external }), sitemap)).toEqual({
      saveable: true,
      result: 'https://x.org',
    });
    expect(linkResult(state({ type: 'External', external: { ...external, url: 'x' } }), sitemap).saveable).toBe(false);
    const captcha = { ...external, captcha: true, captchaPageId: 'captcha' };
    expect(linkResult(state({ type: 'External', external: captcha }), sitemap).saveable).toBe(false);
    expect(linkResult(state({ type: 'External', external: { ...captcha, errorPageId: 'oops' } }), sitemap)).toEqual({
      saveable: true,
      result: '#/captcha/captcha-page/oops/https%3A%2F%2Fx.org',
    });
  });

  it('needs a chosen asset or microsite', () => {
    expect(linkResult(state({ type: 'Asset' }), sitemap)).toEqual({ saveable: false, result: '' });
    expect(linkResult(state({ type: 'Asset', asset: 'docs/a.pdf' }), sitemap)).toEqual({
      saveable: true,
      result: 'docs/a.pdf',
    });
    expect(linkResult(state({ type: 'MicroSite', microsite: 'microsites/crew/index.html' }), sitemap)).toEqual({
      saveable: true,
      result: 'microsites/crew/index.html',
    });
    expect(assetLink('/docs/a.pdf')).toBe('docs/a.pdf');
    expect(assetLink('docs/a.pdf')).toBe('docs/a.pdf');
  });
});
