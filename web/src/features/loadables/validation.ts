/**
 * The rules of a loadable generation request, the same as the server's (internal/loadable
 * Request.Check; docs/api.md "Loadables"), with its messages. null when valid.
 */
import { z } from 'zod';
import { MAX_OVERRIDE_REASON } from '../../api/loadables';
import { maxLength, requiredField } from '../../ui/schemas';
import { LOADABLE_MESSAGES as MSG } from './messages';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const PART = /^[A-Z0-9][A-Z0-9-]{2,31}$/;
const VERSION = /^(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,2})$/;

export const PAYLOAD_TYPES = ['PORTAL', 'MICROSITE', 'CAPTIVE', 'MEDIA'] as const;

export const nameError = (v: string): string | null => (NAME.test(v.trim()) ? null : MSG.name);
export const partNumberError = (v: string): string | null => (PART.test(v.trim()) ? null : MSG.partNumber);
export const versionPrefixError = (v: string): string | null => (VERSION.test(v.trim()) ? null : MSG.versionPrefix);
export const typeError = (v: string): string | null =>
  (PAYLOAD_TYPES as readonly string[]).includes(v.trim()) ? null : MSG.type;
export const gitRefError = (v: string): string | null => (v.trim() ? null : MSG.gitRef);

export interface DetailsValues {
  name: string;
  partNumber: string;
  versionPrefix: string;
}

/** The first error of each details field (empty when the step is valid). */
export function detailsErrors(values: DetailsValues): Partial<Record<keyof DetailsValues, string>> {
  const errors: Partial<Record<keyof DetailsValues, string>> = {};
  const name = nameError(values.name);
  const part = partNumberError(values.partNumber);
  const version = versionPrefixError(values.versionPrefix);
  if (name) errors.name = name;
  if (part) errors.partNumber = part;
  if (version) errors.versionPrefix = version;
  return errors;
}

/** Approving over the readiness gate: a reason is required (≤ 1000 characters). */
export const overrideSchema = z.object({
  reason: requiredField(maxLength(MAX_OVERRIDE_REASON, MSG.overrideReasonTooLong)),
});
export type OverrideValues = z.infer<typeof overrideSchema>;
