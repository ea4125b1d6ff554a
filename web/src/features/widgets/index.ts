/**
 * The field widgets of content editing (spec 2 §2 "Link manager", "Other field widgets"): the
 * link manager and its link formats, the page selector, internal link picker, image picker,
 * asset selector, single-selection list, and the name-rule validators.
 */
export { LinkManagerDialog, LINK_MANAGER_PERMISSION, LINK_MANAGER_WIDTH } from './links/LinkManagerDialog';
export { assetLink, initialLinkState } from './links/model';
export type { LinkManagerDialogProps } from './links/LinkManagerDialog';
export {
  LINK_TYPES,
  captchaLink,
  detectLinkType,
  internalLink,
  micrositeSlug,
  micrositeTarget,
  parseCaptchaLink,
  parseInternalLink,
  validateExternalUrl,
  validateUrl,
  type CaptchaLink,
  type InternalLink,
  type LinkType,
} from './links/linkType';
export {
  InternalLinkFields,
  InternalLinkPicker,
  internalLinkComplete,
  isRequiredParameter,
  type InternalLinkFieldsProps,
  type InternalLinkPickerProps,
} from './links/InternalLinkPicker';
export { RichTextEditor, type RichTextEditorProps } from './richtext/RichTextEditor';
export { PageSelector, type PageSelectorProps } from './PageSelector';
export { PageDropdown, type PageDropdownProps } from './PageDropdown';
export { PageTree, type PageTreeProps } from './PageTree';
export {
  DEFAULT_EXPANDED_LEVELS,
  defaultExpandedIds,
  findPage,
  flattenPages,
  isInactivePage,
  pageError,
  pageLabel,
  withoutHidden,
  type FlatPage,
} from './sitemapTree';
export { useSitemap } from './useSitemap';
export { AssetSelector, ImagePicker, type AssetSelectorProps, type ImagePickerProps } from './AssetSelector';
export { SingleSelectList, type SingleSelectListProps } from './SingleSelectList';
export * from './validators';
export { WIDGET_MESSAGES } from './messages';
