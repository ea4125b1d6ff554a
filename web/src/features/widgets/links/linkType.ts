/**
 * Links of the link manager (spec 2 §3 "Link", §4 "Links", §5 "Links"): the type detected from a
 * value, and the value formats of captcha, microsite and internal links. Pure.
 */
import { url as urlRule } from '../../../lib/validation';
import { WIDGET_MESSAGES } from '../messages';

export const LINK_TYPES = ['Internal', 'External', 'Asset', 'MicroSite'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

const CAPTCHA_SEGMENT = '/captcha-page/';

/**
 * The type of a link value, the rules in the spec's order: '#/' with '/captcha-page/' External;
 * other '#/' Internal; containing 'http' External; containing 'microsites/' MicroSite; else Asset.
 */
export function detectLinkType(value: string): LinkType {
  if (value.startsWith('#/')) return value.includes(CAPTCHA_SEGMENT) ? 'External' : 'Internal';
  if (value.includes('http')) return 'External';
  if (value.includes('microsites/')) return 'MicroSite';
  return 'Asset';
}

// ---------------------------------------------------------------------------
// Captcha links: '#/{captchaPageId}/captcha-page/{errorPageId}/{encodeURIComponent(url)}'

export interface CaptchaLink {
  captchaPageId: string;
  errorPageId: string;
  url: string;
}

export const captchaLink = ({ captchaPageId, errorPageId, url }: CaptchaLink): string =>
  `#/${captchaPageId}${CAPTCHA_SEGMENT}${errorPageId}/${encodeURIComponent(url)}`;

/** The parts of a captcha link, or null when the value is not one. */
export function parseCaptchaLink(value: string): CaptchaLink | null {
  if (!value.startsWith('#/')) return null;
  const at = value.indexOf(CAPTCHA_SEGMENT);
  if (at < 0) return null;
  const captchaPageId = value.slice(2, at);
  const rest = value.slice(at + CAPTCHA_SEGMENT.length);
  const slash = rest.indexOf('/');
  if (slash < 0) return null;
  const errorPageId = rest.slice(0, slash);
  let url = rest.slice(slash + 1);
  try {
    url = decodeURIComponent(url);
  } catch {
    // Not encoded as we write it: keep it as it is.
  }
  return { captchaPageId, errorPageId, url };
}

// ---------------------------------------------------------------------------
// Microsites: 'microsites/{name lowercased, non-word characters replaced by -}/index.html'

export const micrositeSlug = (name: string): string => name.toLowerCase().replace(/\W/g, '-');

export const micrositeTarget = (name: string): string => `microsites/${micrositeSlug(name)}/index.html`;

// ---------------------------------------------------------------------------
// Internal links: '#/{pageId}' plus '?name=value&…'

export interface InternalLink {
  pageId: string;
  /** Parameter values by name, in order. */
  params: Record<string, string>;
}

/** '#/home' or '#/home?airport=LHR&gate=2'; empty values are left out. */
export function internalLink({ pageId, params }: InternalLink): string {
  const query = Object.entries(params)
    .filter(([name, value]) => name !== '' && value !== '')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return `#/${pageId}${query ? `?${query}` : ''}`;
}

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** The page and parameters of an internal link, or null when the value is not one. */
export function parseInternalLink(value: string): InternalLink | null {
  if (!value.startsWith('#/') || value.includes(CAPTCHA_SEGMENT)) return null;
  const body = value.slice(2);
  const q = body.indexOf('?');
  const pageId = q < 0 ? body : body.slice(0, q);
  const params: Record<string, string> = {};
  if (q >= 0) {
    for (const pair of body.slice(q + 1).split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const name = decode(eq < 0 ? pair : pair.slice(0, eq));
      params[name] = eq < 0 ? '' : decode(pair.slice(eq + 1));
    }
  }
  return { pageId, params };
}

// ---------------------------------------------------------------------------
// URLs

/** Empty passes; otherwise http:// or https:// (spec 2 §5 "Links"). */
export const validateUrl = (value: string): string | null => (urlRule(value) ? WIDGET_MESSAGES.urlInvalid : null);

/** An external link's URL: required, then the URL rule. */
export const validateExternalUrl = (value: string): string | null =>
  value.trim() === '' ? WIDGET_MESSAGES.urlRequired : validateUrl(value);
