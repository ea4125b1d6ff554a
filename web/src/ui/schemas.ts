/**
 * zod schemas built from the one table of input rules (lib/validation.ts, which mirrors
 * internal/validate): a form's field is `field(rule…)`, so the form and the server refuse
 * the same values with the same messages, lengths included.
 */
import { z } from 'zod';
import { MESSAGES, required as requiredRule, runeCount, type Rule } from '../lib/validation';

/**
 * A string checked by `rules` as typed (a leading space is the rule's business), the first
 * failing rule's message shown. Wrap a rule in `trimmed` where surrounding spaces do not count.
 */
export function field(...rules: Rule[]) {
  return z.string().superRefine((value, ctx) => {
    for (const rule of rules) {
      const message = rule(value);
      if (message) {
        ctx.addIssue({ code: 'custom', message });
        return;
      }
    }
  });
}

/** A required string ('The field is required') then `rules`. */
export const requiredField = (...rules: Rule[]) => field(requiredRule, ...rules);

/** An optional string: empty passes, anything else must pass `rules`. */
export const optionalField = (...rules: Rule[]) =>
  field(
    ...rules.map(
      (rule): Rule =>
        (s) =>
          s === '' ? null : rule(s),
    ),
  );

/** The rule applied to the value without surrounding spaces. */
export const trimmed =
  (rule: Rule): Rule =>
  (s) =>
    rule(s.trim());

/** At most `max` characters. */
export const maxLength =
  (max: number, message: string): Rule =>
  (s) =>
    runeCount(s) > max ? message : null;

export { MESSAGES };
