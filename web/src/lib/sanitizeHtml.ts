/**
 * The one HTML sanitiser of rich text (spec 2 §4 "Links"; engine/README "Safety"): every rich-text
 * value is passed through it on the way into an editor and on the way out.
 *
 * - DOMPurify with its HTML profile: scripts, styles, frames, objects, embeds, svg/math, `on*`
 *   attributes and `javascript:` / `vbscript:` / non-image `data:` URLs never survive.
 * - Links are normalised: `mailto:` and `#` links are kept as they are; a link without a scheme
 *   gets '//' prefixed ('www.example.com' → '//www.example.com'; a root-relative '/x' and a
 *   protocol-relative '//x' are already fine); every link that is not mailto or # opens in a new
 *   tab (target=_blank rel="noopener noreferrer").
 *
 * A plain-text value (no markup) comes back as it is, so it does not gain markup by passing through.
 */
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

const FORBID_TAGS = [
  'style',
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'svg',
  'math',
  'form',
  'base',
  'meta',
  'link',
];

/** Whether a string has markup (a tag or a comment). */
export const hasHtmlMarkup = (value: string): boolean => /<[a-z!/?][^>]*>/i.test(value);

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Whether a link keeps the current tab (mailto: and #). */
export const isSameTabLink = (href: string): boolean => /^mailto:/i.test(href.trim()) || href.trim().startsWith('#');

/** The spec's link normalisation of one href (spec 2 §4): '' for an empty one. */
export function normalizeLinkHref(href: string): string {
  const value = href.trim();
  if (value === '') return '';
  if (isSameTabLink(value)) return value;
  if (SCHEME.test(value) || value.startsWith('/')) return value;
  return `//${value}`;
}

/** Removed together with their content. */
const DROP_WITH_CONTENT = new Set([
  ...FORBID_TAGS,
  'noscript',
  'template',
  'textarea',
  'select',
  'button',
  'input',
  'title',
  'head',
  'applet',
  'audio',
  'video',
  'source',
  'track',
  'canvas',
  'portal',
]);
/** Kept; any other element is unwrapped (its content stays). */
const ALLOWED_TAGS = new Set(
  'a abbr b blockquote br caption cite code col colgroup dd del div dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q s small span strike strong sub sup table tbody td tfoot th thead tr u ul'.split(
    ' ',
  ),
);
const ALLOWED_ATTRS = new Set([
  'href',
  'src',
  'alt',
  'title',
  'target',
  'rel',
  'class',
  'dir',
  'lang',
  'width',
  'height',
  'colspan',
  'rowspan',
  'start',
  'type',
]);
const URL_ATTRS = new Set(['href', 'src']);

/** Whether a URL attribute value is safe: no script schemes; data: only for images in src. */
function safeUrl(value: string, attr: string): boolean {
  // Browsers ignore control characters and whitespace inside a scheme ('java\tscript:').
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  if (/^(javascript|vbscript|livescript):/.test(compact)) return false;
  if (compact.startsWith('data:')) return attr === 'src' && /^data:image\/(png|gif|jpe?g|webp|bmp);/.test(compact);
  return true;
}

/**
 * The allow-list pass every value goes through (after DOMPurify where it works): it removes what
 * must never survive and normalises links, on any DOM (also test DOMs where DOMPurify's node
 * iterator does not run).
 */
function cleanTree(root: ParentNode): void {
  for (const element of [...root.querySelectorAll('*')]) {
    if (!element.isConnected && !root.contains(element)) continue; // inside a dropped element
    const tag = element.nodeName.toLowerCase();
    if (DROP_WITH_CONTENT.has(tag)) {
      element.remove();
      continue;
    }
    if (!ALLOWED_TAGS.has(tag)) {
      element.replaceWith(...element.childNodes);
      continue;
    }
    for (const { name, value } of [...element.attributes]) {
      const attr = name.toLowerCase();
      if (!ALLOWED_ATTRS.has(attr) || (URL_ATTRS.has(attr) && !safeUrl(value, attr))) element.removeAttribute(name);
    }
    if (tag === 'a') normalizeAnchor(element);
  }
}

function normalizeAnchor(element: Element): void {
  const raw = element.getAttribute('href');
  if (raw === null) {
    element.removeAttribute('target');
    return;
  }
  const href = normalizeLinkHref(raw);
  element.setAttribute('href', href);
  if (isSameTabLink(href)) {
    element.removeAttribute('target');
    element.removeAttribute('rel');
  } else {
    element.setAttribute('target', '_blank');
    element.setAttribute('rel', 'noopener noreferrer');
  }
}

let purifier: Purifier | null | undefined;

/** DOMPurify, when it works on this DOM (it checks itself once); null otherwise. */
function domPurify(): Purifier | null {
  if (purifier !== undefined) return purifier;
  purifier = null;
  if (typeof window === 'undefined') return null;
  try {
    const created = DOMPurify(window);
    const probe = '<p>a</p><b>b</b>';
    if (created.isSupported && created.sanitize(`${probe}<script>x</script>`) === probe) purifier = created;
  } catch {
    purifier = null;
  }
  return purifier;
}

/** Escapes text for HTML (the fallback when no DOM is available). */
const escapeText = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * Sanitises rich-text HTML and normalises its links. A value without markup is returned as it is
 * (plain text stays plain text).
 */
export function sanitizeHtml(html: string | null | undefined): string {
  const value = html ?? '';
  if (!hasHtmlMarkup(value)) return value;
  if (typeof document === 'undefined') return escapeText(value);
  const p = domPurify();
  const first = p
    ? p.sanitize(value, { USE_PROFILES: { html: true }, FORBID_TAGS, FORBID_ATTR: ['style'], ALLOW_DATA_ATTR: false })
    : value;
  // An inert template: nothing in it loads or runs while it is cleaned.
  const template = document.createElement('template');
  template.innerHTML = first;
  cleanTree(template.content);
  return template.innerHTML;
}
