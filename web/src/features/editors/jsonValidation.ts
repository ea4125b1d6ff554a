/**
 * The JSON editor's validator and its spec messages (spec 2 §5 "JSON editor and fields").
 * Formats the validator does not know ('textarea', 'color': widget hints) accept any text.
 */
import type { ErrorTransformer } from '@rjsf/utils';
import { cspSafeValidator } from './cspSafeValidator';
import { EDITOR_MESSAGES } from './messages';

export const jsonValidator = cspSafeValidator;

export const transformErrors: ErrorTransformer = (errors) =>
  errors.map((error) => {
    if (error.name === 'required') return { ...error, message: EDITOR_MESSAGES.required };
    if (error.name === 'pattern') return { ...error, message: EDITOR_MESSAGES.pattern };
    return error;
  });

/**
 * What a link field accepts: an absolute URL (https:, mailto:, …) or a path in the portal
 * ('/x', 'pages/a.html', '#/anchor'); never whitespace.
 */
export function isValidLink(value: string): boolean {
  if (value === '' || /\s/.test(value)) return value === '';
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  }
  return /^[\w\-./~%?=&#:@+!$,;'()*[\]]+$/.test(value);
}
