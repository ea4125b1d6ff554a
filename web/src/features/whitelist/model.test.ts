import { describe, expect, it } from 'vitest';
import type { CheckedUrl } from '../../api/whitelist';
import { blockedOrigins, chosenOrigins, pendingOrigins, toggledOrigin, urlsOf, withoutUrl, withUrls } from './model';

const checked = (url: string, allowed = false): CheckedUrl => ({ url, allowed, usedIn: [] });

describe('the whitelist draft', () => {
  it('reads the URLs of a whitelist in order', () => {
    expect(urlsOf({ whitelist: [{ url: 'https://b.example' }, { url: 'https://a.example' }], version: 'v1' })).toEqual([
      'https://b.example',
      'https://a.example',
    ]);
  });

  it('adds only new URLs, once each, and keeps the same draft when none is new', () => {
    const draft = ['https://a.example'];
    expect(withUrls(draft, ['https://b.example', 'https://a.example', 'https://b.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(withUrls(draft, ['https://a.example'])).toBe(draft);
    expect(withUrls(draft, [])).toBe(draft);
  });

  it('removes a URL', () => {
    expect(withoutUrl(['https://a.example', 'https://b.example'], 'https://a.example')).toEqual(['https://b.example']);
    expect(withoutUrl(['https://a.example'], 'https://c.example')).toEqual(['https://a.example']);
  });
});

describe('the portal check', () => {
  it('groups the URLs not allowed by origin, most URLs first, then by name', () => {
    const urls = [
      checked('https://cdn.example/a.js'),
      checked('https://cdn.example/b.js'),
      checked('https://fonts.example/x.css'),
      checked('https://api.example/v1'),
      checked('https://allowed.example/ok', true),
      checked('not a url'),
    ];
    expect(blockedOrigins(urls)).toEqual([
      { origin: 'https://cdn.example', count: 2 },
      { origin: 'https://api.example', count: 1 },
      { origin: 'https://fonts.example', count: 1 },
    ]);
    expect(blockedOrigins([])).toEqual([]);
  });

  it('offers the origins not in the draft and keeps only choices that can still be added', () => {
    const blocked = [
      { origin: 'https://cdn.example', count: 2 },
      { origin: 'https://api.example', count: 1 },
    ];
    const pending = pendingOrigins(blocked, ['https://cdn.example']);
    expect(pending).toEqual([{ origin: 'https://api.example', count: 1 }]);
    expect(chosenOrigins(['https://cdn.example', 'https://api.example'], pending)).toEqual(['https://api.example']);
  });

  it('ticks an origin last and unticks it', () => {
    expect(toggledOrigin(['a', 'b'], 'a', true)).toEqual(['b', 'a']);
    expect(toggledOrigin(['a'], 'c', true)).toEqual(['a', 'c']);
    expect(toggledOrigin(['a', 'b'], 'a', false)).toEqual(['b']);
  });
});
