import { describe, expect, it } from 'vitest';
import { hasHtmlMarkup, normalizeLinkHref, sanitizeHtml } from './sanitizeHtml';

function parse(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host;
}

describe('sanitizeHtml', () => {
  it('never lets a script or an event handler through', () => {
    const out = sanitizeHtml('<p>Hi<script>alert(1)</script><img src="x.png" onerror="alert(2)"></p>');
    expect(out).not.toMatch(/script/i);
    expect(out).not.toMatch(/onerror/i);
    expect(out).not.toMatch(/alert/);
    expect(parse(out).querySelector('img')?.getAttribute('src')).toBe('x.png');
  });

  it('drops javascript: links, iframes and styles', () => {
    const out = sanitizeHtml(
      '<a href="javascript:alert(1)">x</a><iframe src="//evil"></iframe><style>p{}</style><p style="color:red">t</p>',
    );
    expect(out).not.toMatch(/javascript:/i);
    expect(out).not.toMatch(/iframe|<style|style=/i);
  });

  it('normalises links (spec 2 §4)', () => {
    const host = parse(
      sanitizeHtml(
        '<a href="mailto:a@b.c">m</a><a href="#top">h</a><a href="www.example.com">w</a><a href="https://x.org">x</a><a href="/pages/a.html">r</a>',
      ),
    );
    const [mail, hash, bare, https, rooted] = [...host.querySelectorAll('a')];
    expect(mail.getAttribute('href')).toBe('mailto:a@b.c');
    expect(mail.hasAttribute('target')).toBe(false);
    expect(hash.getAttribute('href')).toBe('#top');
    expect(hash.hasAttribute('target')).toBe(false);
    expect(bare.getAttribute('href')).toBe('//www.example.com');
    expect(bare.getAttribute('target')).toBe('_blank');
    expect(bare.getAttribute('rel')).toBe('noopener noreferrer');
    expect(https.getAttribute('href')).toBe('https://x.org');
    expect(https.getAttribute('target')).toBe('_blank');
    expect(rooted.getAttribute('href')).toBe('/pages/a.html');
  });

  it('returns plain text as it is', () => {
    expect(sanitizeHtml('Hello & goodbye')).toBe('Hello & goodbye');
    expect(sanitizeHtml('')).toBe('');
    expect(sanitizeHtml(undefined)).toBe('');
    expect(hasHtmlMarkup('a < b')).toBe(false);
    expect(hasHtmlMarkup('<b>a</b>')).toBe(true);
  });

  it('normalises one href', () => {
    expect(normalizeLinkHref('example.com/a')).toBe('//example.com/a');
    expect(normalizeLinkHref('//cdn.example.com')).toBe('//cdn.example.com');
    expect(normalizeLinkHref('http://a.b')).toBe('http://a.b');
    expect(normalizeLinkHref('  ')).toBe('');
  });
});
