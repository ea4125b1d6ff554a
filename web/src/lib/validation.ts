/**
 * The input rules of the spec (spec 1 §5, spec 3 §5) for the browser. They mirror
 * internal/validate/validate.go rule for rule, message for message; validation.test.ts runs
 * the same table as validate_test.go. Each rule returns the spec's message, or null when the
 * value passes. Their patterns are the server's, generated (rules.generated.ts).
 */
import {
  ALPHANUMERIC,
  BRANCH_NAME,
  COMMIT_MESSAGE,
  COMMIT_TEXT,
  GIT_URL,
  ICAO,
  NO_SPACES,
  PAGE_NAME,
  PERSON_NAME,
  PORTAL_NAME,
  SPECIAL_REF,
  USERNAME,
} from './rules.generated';

/** Constants of spec 1 §9. */
export const MIN_PASSWORD_LENGTH = 5;
export const MAX_USERNAME_LENGTH = 20;
export const MAX_NAME_LENGTH = 100;

/** Messages, word for word from the spec (trailing spaces included where the spec has them). */
export const MESSAGES = {
  missingCredentials: 'Missing username or password',
  fieldRequired: 'The field is required',
  alphanumeric: 'Please enter only Alphanumeric characters, spaces and/or Underscores.',
  noSpaces: 'Please enter only Alphanumeric characters and/or Underscores. ',
  icao: 'Please enter a valid ICAO code. All caps and 3 characters and more. ',
  portalName:
    'Please enter only alphanumeric characters, spaces, underscores, round brackets, full stops and/or dashes.',
  pageName: 'Please enter only alphanumeric characters, spaces, underscores and/or dashes.',
  username:
    'Username not valid. Please enter only alphanumeric characters, dashes and underscores with a max length of 20.',
  branchName:
    'Please enter only Alphanumeric characters, underscore (_), dash (-), dot(.) and/or single forward slash (/).',
  staticPortalName: 'Please do not enter single and/or double quotation marks.',
  leadingWhitespace: 'No Leading white spaces allowed',
  url: 'Please make sure the URL is valid and starts with http:// or https://',
  crewUrl: 'Please enter a valid Crew URL',
  gitUrl: 'This is not a valid GIT URL',
  number: 'Please provide a number for the given field.',
  email: 'Please enter valid email address',
  specialCharacters: 'Please do not use special characters.',
  commitRequired: 'Please enter a commit message.',
  commitFormat: 'Please match the requested format. Only alphanumeric and numetric characters are allowed.',
  /** A message outside the ANY_TEXT rule (not the spec's: it has only the ALPHANUMERIC rule). */
  commitText: 'The first line must be 1 to 200 printable characters; write more after a blank line.',
  publicKeyRequired: 'Public Key input is required',
  confirmPassword: 'Please confirm your password',
  passwordsDiffer: "The confirm new password doesn't match the new password",
  /** An empty confirmation of a new password (spec 1 §5.2's other variant). */
  newPasswordUnconfirmed: 'The new password must be confirmed.',
  passwordUnchanged: "The new password can't be the same as the current password",
  passwordLength: `Your password needs to be at least ${MIN_PASSWORD_LENGTH} characters.`,
  nameTooLong: `The name must be at most ${MAX_NAME_LENGTH} characters.`,
} as const;

export const maxValueMessage = (max: number) => `Maximum value allowed is ${String(max)}`;
export const minValueMessage = (min: number) => `Minimum value allowed is ${String(min)}`;

/** A rule: the message when the value is refused, null when it passes. */
export type Rule = (value: string) => string | null;

// The name rules are the server's (internal/validate/rules.go), generated: written once.
const reAlphanumeric = ALPHANUMERIC;
const reNoSpaces = NO_SPACES;
const reICAO = ICAO;
const rePortalName = PORTAL_NAME;
const rePageName = PAGE_NAME;
const reUsername = USERNAME;
const reBranchName = BRANCH_NAME;
const reGitURL = GIT_URL;
const reCommit = COMMIT_MESSAGE;
const reCommitText = COMMIT_TEXT;
const rePersonName = PERSON_NAME;
const reWhitespace = /[ \t\r\n]/;
// A plain address as Go's net/mail accepts it without a display name: dot-atom local part
// and domain, no quoting, no comments.
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const reEmail = new RegExp(`^${ATEXT}+(\\.${ATEXT}+)*@${ATEXT}+(\\.${ATEXT}+)*$`);
const reNumber = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Length in characters as the server counts them (code points, Go's utf8.RuneCountInString):
 * an emoji or an accented letter is one, not the two UTF-16 units of `.length`.
 */
export const runeCount = (s: string) => [...s].length;

/** Letters, digits, spaces and underscores (group and domain names). */
export const alphanumeric: Rule = (s) => (reAlphanumeric.test(s) ? null : MESSAGES.alphanumeric);

/** At most MAX_NAME_LENGTH characters (code points). */
export const nameLength: Rule = (s) => (runeCount(s) > MAX_NAME_LENGTH ? MESSAGES.nameTooLong : null);

/** A domain, permission-group or category name: alphanumeric, at most MAX_NAME_LENGTH characters. */
export const name: Rule = (s) => alphanumeric(s) ?? nameLength(s);

/** Letters, digits, underscore, dot. */
export const noSpaces: Rule = (s) => (reNoSpaces.test(s) ? null : MESSAGES.noSpaces);

/** Three or more capital letters. */
export const icao: Rule = (s) => (reICAO.test(s) ? null : MESSAGES.icao);

/** Not starting with a dash or whitespace; letters, digits, space, _ - . ( ). */
export const portalName: Rule = (s) => (rePortalName.test(s) ? nameLength(s) : MESSAGES.portalName);

/** Not starting with a dash or whitespace; letters, digits, space, _ -. */
export const pageName: Rule = (s) => (rePageName.test(s) ? nameLength(s) : MESSAGES.pageName);

/** 1 to 20 letters, digits, dashes or underscores, not starting with a dash. */
export const username: Rule = (s) => (reUsername.test(s) ? null : MESSAGES.username);

/**
 * First components that make a branch name read as another kind of ref: refs/heads/x names a
 * ref path, origin/x and remotes/x a remote-tracking branch, heads/x and tags/x shadow
 * refs/heads/x and refs/tags/x in git's short-name lookup.
 */
const RESERVED_BRANCH_FIRST = new Set(['refs', 'origin', 'remotes', 'heads', 'tags']);
/** git's special refs: HEAD, FETCH_HEAD, ORIG_HEAD, MERGE_HEAD, CHERRY_PICK_HEAD, … */
const reSpecialRef = SPECIAL_REF;

/**
 * Starts with a letter or digit, then letters, digits, _ . - /; no '..' or '//'; no trailing
 * '.' or '/'; no component that starts with '.' or ends with '.lock'; not one of git's special
 * refs; not starting with a reserved component (refs, origin, remotes, heads, tags); at most
 * 250 characters (the allowed characters are ASCII, so characters are bytes).
 */
export const branchName: Rule = (s) => {
  if (
    !reBranchName.test(s) ||
    s.includes('..') ||
    s.includes('//') ||
    s.endsWith('.') ||
    s.endsWith('/') ||
    s.length > 250 ||
    reSpecialRef.test(s)
  ) {
    return MESSAGES.branchName;
  }
  const parts = s.split('/');
  if (RESERVED_BRANCH_FIRST.has(parts[0])) return MESSAGES.branchName;
  return parts.some((c) => c.startsWith('.') || c.endsWith('.lock')) ? MESSAGES.branchName : null;
};

/** No single or double quotes or backticks. */
export const staticPortalName: Rule = (s) => (/['"`]/.test(s) ? MESSAGES.staticPortalName : null);

/** No leading whitespace, '-', '<' or '>'. */
export const noLeadingWhitespace: Rule = (s) =>
  s !== '' && ' \t\r\n-<>'.includes(s[0]) ? MESSAGES.leadingWhitespace : null;

/** Empty passes; otherwise http:// or https:// and a host. */
export const url: Rule = (s) => {
  if (s === '') return null;
  let rest: string;
  if (s.startsWith('http://')) rest = s.slice('http://'.length);
  else if (s.startsWith('https://')) rest = s.slice('https://'.length);
  else return MESSAGES.url;
  return rest === '' || reWhitespace.test(s) || rest.startsWith('/') ? MESSAGES.url : null;
};

/** No whitespace and contains a dot. */
export const crewUrl: Rule = (s) => (s === '' || reWhitespace.test(s) || !s.includes('.') ? MESSAGES.crewUrl : null);

/** git://, ssh://, http(s):// or git@host: forms ending in .git. */
export const gitUrl: Rule = (s) => (reGitURL.test(s) ? null : MESSAGES.gitUrl);

/** Parses s as a number and checks the optional bounds. */
export function numberInRange(s: string, min?: number, max?: number): string | null {
  const trimmed = s.trim();
  if (!reNumber.test(trimmed)) return MESSAGES.number;
  const value = Number(trimmed);
  if (max !== undefined && value > max) return maxValueMessage(max);
  if (min !== undefined && value < min) return minValueMessage(min);
  return null;
}

/** Required and a plain address (name@host.tld). */
export const email: Rule = (s) =>
  reEmail.test(s) && s.slice(s.lastIndexOf('@') + 1).includes('.') ? null : MESSAGES.email;

/** Letters (any script), spaces, dots, apostrophes and dashes; digits and symbols are refused. */
export function personName(s: string, required: boolean): string | null {
  if (s === '') return required ? MESSAGES.fieldRequired : null;
  return rePersonName.test(s) ? nameLength(s) : MESSAGES.specialCharacters;
}

/** The minimum length of a new password. */
export const passwordLength: Rule = (s) => (runeCount(s) < MIN_PASSWORD_LENGTH ? MESSAGES.passwordLength : null);

/** Refuses control characters (printable symbols are allowed in passwords). */
export const passwordCharacters: Rule = (s) => {
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code === 0x7f) return MESSAGES.specialCharacters;
  }
  return null;
};

/** Required; starts with a letter or digit, then letters, digits, spaces or line breaks. */
export const commitMessage: Rule = (s) => {
  if (s.trim() === '') return MESSAGES.commitRequired;
  return reCommit.test(s) ? null : MESSAGES.commitFormat;
};

/** Required; a subject of 1 to 200 printable characters (any script), then a blank line and a body. */
export const commitText: Rule = (s) => {
  if (s.trim() === '') return MESSAGES.commitRequired;
  return reCommitText.test(s) ? null : MESSAGES.commitText;
};

/** The commit message rules a portal chooses (portal settings' commitMessageRule; validate.CommitRules). */
export type CommitMessageRule = 'ALPHANUMERIC' | 'ANY_TEXT';

/** Each rule's check and the line shown under the message box. */
export const COMMIT_RULES: Record<CommitMessageRule, { check: Rule; hint: string; label: string }> = {
  ALPHANUMERIC: {
    check: commitMessage,
    hint: 'Letters, digits and spaces only',
    label: "Letters, digits and spaces (the spec's rule)",
  },
  ANY_TEXT: {
    check: commitText,
    hint: 'Any text; first line up to 200 characters',
    label: "Any text, first line up to 200 characters (git hosts' convention)",
  },
};

/** The check of a portal's rule (the spec's when the rule is unknown). */
export const commitRule = (rule: string | undefined) => COMMIT_RULES[rule === 'ANY_TEXT' ? 'ANY_TEXT' : 'ALPHANUMERIC'];

/** A trimmed value that is not empty. */
export const required: Rule = (s) => (s.trim() === '' ? MESSAGES.fieldRequired : null);

/** The first message among rules, or null. */
export function firstError(value: string, ...rules: Rule[]): string | null {
  for (const rule of rules) {
    const message = rule(value);
    if (message) return message;
  }
  return null;
}
