/**
 * Client rules of the Administration forms, with the spec's wording (spec 1 §5.2, §5.3). The
 * rules themselves are lib/validation's (the mirror of internal/validate); the forms' zod
 * schemas are built from them here.
 */
import { z } from 'zod';
import { email, MESSAGES, name as nameRule, personName, username } from '../../lib/validation';
import { field, requiredField, trimmed } from '../../ui/schemas';

export const ADMIN_MESSAGES = {
  required: 'The field is required',
  username:
    'Username not valid. Please enter only alphanumeric characters, dashes and underscores with a max length of 20.',
  email: 'Please enter valid email address',
  alphanumericName: 'Please enter only Alphanumeric characters, spaces and/or Underscores.',
  bannerTooLong: 'The banner message must be at most 500 characters.',
} as const;

export const BANNER_MESSAGE_MAX = 500;

/** 1 to 20 letters, digits, dashes and underscores, not starting with a dash. */
const USERNAME = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,19}$/;
/** A standard address: something@host.tld, no spaces. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Letters, digits, spaces and underscores, not starting with a space. */
const ALPHANUMERIC_NAME = /^[A-Za-z0-9_][A-Za-z0-9_ ]*$/;

export const usernameError = (value: string): string | undefined =>
  USERNAME.test(value) ? undefined : ADMIN_MESSAGES.username;

export const emailError = (value: string): string | undefined => {
  if (!value.trim()) return ADMIN_MESSAGES.required;
  return EMAIL.test(value.trim()) ? undefined : ADMIN_MESSAGES.email;
};

export const requiredError = (value: string): string | undefined =>
  value.trim() ? undefined : ADMIN_MESSAGES.required;

/** Domain, group and category names (spec 1 §5.3 "Alphanumeric names"; at most 100 characters). */
export const alphanumericNameError = (value: string): string | undefined => {
  if (!value.trim()) return ADMIN_MESSAGES.required;
  if (!ALPHANUMERIC_NAME.test(value)) return ADMIN_MESSAGES.alphanumericName;
  return nameRule(value.trim()) ?? undefined;
};

/** A user's names, e-mail and admin flag (the server's rules: identity.checkUser). */
export const userSchema = z.object({
  firstName: field((s) => personName(s, true)),
  middleName: field((s) => personName(s, false)),
  lastName: field((s) => personName(s, true)),
  email: requiredField(trimmed(email)),
  admin: z.boolean(),
});

/** Create User: the user name besides. */
export const newUserSchema = userSchema.extend({ userName: field(username) });

/** Send E-mail: subject and message. */
export const emailSchema = z.object({
  subject: requiredField(),
  message: field((s) => (s === '' ? MESSAGES.fieldRequired : null)),
});

export interface UserFormValues {
  firstName: string;
  middleName: string;
  lastName: string;
  email: string;
  admin: boolean;
}

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

export function validateUserForm(values: UserFormValues): FieldErrors<UserFormValues> {
  const errors: FieldErrors<UserFormValues> = {};
  const first = requiredError(values.firstName);
  if (first) errors.firstName = first;
  const last = requiredError(values.lastName);
  if (last) errors.lastName = last;
  const email = emailError(values.email);
  if (email) errors.email = email;
  return errors;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;

const PERMISSION_OBJECTS: Record<string, string> = {
  domain: 'the domain',
  domain_user: 'domain users',
  portal: 'portals',
  portal_settings: 'portal settings',
  branch: 'branches',
  template: 'templates',
  category: 'categories',
  microsite: 'microsites',
  asset: 'assets',
  page: 'pages',
  code: 'source code',
  translation: 'translations',
  link: 'links',
  task: 'the task runner',
  preview: 'previews',
  loadable: 'loadables',
  whitelist: 'the whitelist',
};

const PERMISSION_VERBS: Record<string, string> = {
  read: 'View',
  write: 'Edit',
  create: 'Create',
  delete: 'Delete',
  activate: 'Activate',
  deactivate: 'Deactivate',
  link: 'Link',
  approve: 'Approve',
};

const PERMISSION_SPECIAL: Record<string, string> = {
  category_link: 'Put portals in categories',
  task_write: 'Run the task runner',
};

/**
 * What a permission lets a member do, in words ('portal_settings_read' → 'View portal settings').
 * The catalogue's names are the API's; screens show this and keep the name for tooltips.
 */
export function permissionLabel(permission: string): string {
  const special = PERMISSION_SPECIAL[permission];
  if (special) return special;
  const cut = permission.lastIndexOf('_');
  const verb = PERMISSION_VERBS[permission.slice(cut + 1)];
  const object = PERMISSION_OBJECTS[permission.slice(0, cut)];
  return verb && object && cut > 0 ? `${verb} ${object}` : permission;
}

/** A permission's resource: its first segment ('portal_settings_read' → 'portal'). */
export const permissionResource = (permission: string): string => permission.split(/[_:]/)[0] ?? permission;

/** The catalogue grouped by resource, in catalogue order. */
export function groupPermissions(catalogue: readonly string[]): Array<[string, string[]]> {
  const groups = new Map<string, string[]>();
  for (const permission of catalogue) {
    const resource = permissionResource(permission);
    groups.set(resource, [...(groups.get(resource) ?? []), permission]);
  }
  return [...groups.entries()];
}
