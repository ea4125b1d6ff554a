/** The readiness forms' rules (ui/schemas style): the ignore reason and the settings. */
import { z } from 'zod';
import type { Rule } from '../../lib/validation';
import { maxLength, requiredField, field } from '../../ui/schemas';
import { MAX_IGNORE_REASON, READINESS_MESSAGES as MSG } from './messages';

export const ignoreSchema = z.object({
  reason: requiredField(maxLength(MAX_IGNORE_REASON, MSG.reasonTooLong)),
});
export type IgnoreValues = z.infer<typeof ignoreSchema>;

const patternRule: Rule = (s) =>
  s.trim() === '' ? MSG.patternRequired : /^[A-Za-z0-9_.\-*?]+$/.test(s.trim()) ? null : MSG.patternFormat;
const maxCharsRule: Rule = (s) => {
  const n = Number(s.trim());
  return /^\d+$/.test(s.trim()) && n >= 1 && n <= 100000 ? null : MSG.maxCharsFormat;
};
const sizeRule: Rule = (s) =>
  s.trim() === '' || (/^\d+(\.\d+)?$/.test(s.trim()) && Number(s) <= 100000) ? null : MSG.sizeFormat;

export const settingsSchema = z.object({
  gate: z.boolean(),
  budgets: z.array(z.object({ pattern: field(patternRule), maxChars: field(maxCharsRule) })),
  sizeMb: field(sizeRule),
});
export type SettingsValues = z.infer<typeof settingsSchema>;
