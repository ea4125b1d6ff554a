/**
 * The name rules of spec 2 §5 "Pages" as pure functions: each answers the spec's message, or null
 * when the value passes. They are the rules of lib/validation (which mirror the server's), named
 * for the content-editing fields, plus the page-parameter and link rules of the same section.
 */
import {
  MESSAGES,
  alphanumeric,
  noLeadingWhitespace,
  noSpaces,
  numberInRange,
  pageName,
  type Rule,
} from '../../lib/validation';
import { WIDGET_MESSAGES } from './messages';

export type { Rule };

export const NAME_RULE_MESSAGES = {
  pageName: MESSAGES.pageName,
  specialCharacters: MESSAGES.alphanumeric,
  noSpaces: MESSAGES.noSpaces,
  leadingWhitespace: MESSAGES.leadingWhitespace,
  number: MESSAGES.number,
} as const;

/** Page names: not starting with a dash or whitespace; letters, digits, space, underscore and dash. */
export const validatePageName: Rule = pageName;

/** Names with special characters refused: letters, digits, spaces and underscores. */
export const validateAlphanumericName: Rule = alphanumeric;

/** No-space names: letters, digits, underscore and dot. */
export const validateNoSpaceName: Rule = noSpaces;

/** No leading whitespace and no leading '-', '<' or '>'. */
export const validateNoLeadingWhitespace: Rule = noLeadingWhitespace;

/** A number within the optional bounds ('Maximum value allowed is {n}', 'Minimum value allowed is {n}'). */
export const validateNumber = (value: string, bounds: { min?: number; max?: number } = {}): string | null =>
  numberInRange(value, bounds.min, bounds.max);

/** A required page parameter with an empty value: '{name} is required.'. */
export const validatePageParameter = (
  parameter: { name: string; required?: boolean },
  value: string | null | undefined,
): string | null =>
  parameter.required !== false && (value ?? '').trim() === ''
    ? WIDGET_MESSAGES.parameterRequired(parameter.name)
    : null;

export { validateExternalUrl, validateUrl } from './links/linkType';
