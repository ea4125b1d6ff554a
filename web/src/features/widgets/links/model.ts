/**
 * The link manager's pure model: the dialog's state for a value (each link type's fields), and
 * what Save would store and whether it may (the chosen type's rules). The link formats
 * themselves are linkType.ts.
 */
import type { SitemapPage } from '../../../api/sitemap';
import { EMPTY_INTERNAL_LINK, internalLinkComplete } from './InternalLinkPicker';
import {
  captchaLink,
  detectLinkType,
  internalLink,
  parseCaptchaLink,
  parseInternalLink,
  validateExternalUrl,
  type InternalLink,
  type LinkType,
} from './linkType';

export interface ExternalState {
  url: string;
  captcha: boolean;
  captchaPageId: string;
  errorPageId: string;
}

export interface LinkState {
  type: LinkType;
  internal: InternalLink;
  external: ExternalState;
  asset: string;
  microsite: string;
}

/** The dialog's state for an existing value: each type's fields filled from it when it is of that type. */
export function initialLinkState(value: string): LinkState {
  const type = detectLinkType(value);
  const captcha = type === 'External' ? parseCaptchaLink(value) : null;
  return {
    type: value === '' ? 'Internal' : type,
    internal: (type === 'Internal' && parseInternalLink(value)) || EMPTY_INTERNAL_LINK,
    external: captcha
      ? { url: captcha.url, captcha: true, captchaPageId: captcha.captchaPageId, errorPageId: captcha.errorPageId }
      : { url: type === 'External' ? value : '', captcha: false, captchaPageId: '', errorPageId: '' },
    asset: type === 'Asset' ? value : '',
    microsite: type === 'MicroSite' ? value : '',
  };
}

/**
 * What Save stores for the chosen type, and whether it may: an internal link needs its page and
 * required parameters, an external one a valid URL (and with a captcha both pages), an asset or a
 * microsite a choice.
 */
export function linkResult(
  state: LinkState,
  root: SitemapPage | null | undefined,
): { saveable: boolean; result: string } {
  const { external } = state;
  switch (state.type) {
    case 'Internal':
      return { saveable: internalLinkComplete(root, state.internal), result: internalLink(state.internal) };
    case 'External':
      return {
        saveable:
          !validateExternalUrl(external.url) &&
          (!external.captcha || (!!external.captchaPageId && !!external.errorPageId)),
        result: external.captcha
          ? captchaLink({ url: external.url, captchaPageId: external.captchaPageId, errorPageId: external.errorPageId })
          : external.url,
      };
    case 'Asset':
      return { saveable: state.asset !== '', result: state.asset };
    case 'MicroSite':
      return { saveable: state.microsite !== '', result: state.microsite };
  }
  return { saveable: false, result: '' };
}

/** An asset's path as a link, an image key or an image field stores it: relative, no leading '/'. */
export const assetLink = (path: string): string => path.replace(/^\//, '');
