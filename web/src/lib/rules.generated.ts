// Generated from internal/validate/rules.go by `go test ./internal/validate -run TestBrowserRulesAreGenerated -update`.
// Do not edit: the Go test fails when this file and the server's rules differ.

/** A portal language code: ll or lll, optionally _CC (en_GB). */
export const LANGUAGE_CODE = new RegExp("^[a-z]{2,3}(_[A-Z]{2})?$", "");

/** A key of the product's own (flat) translation files, upper-cased. */
export const TRANSLATION_KEY = new RegExp("^(TXT|IMG|LNK)_[A-Z0-9_.-]+$", "");

/** A new file or folder name: letters, digits, space and [ ] - _ ) & $ @ ( ^ { } ~ . */
export const FILE_NAME = new RegExp("^[\\p{L}\\p{Nd} \\[\\]\\-_)&$@(^{}~.]+$", "u");

/** A tag in a translation value: the value is rich text. */
export const MARKUP = new RegExp("<[A-Za-z!/][^>]*>", "");

/** Letters, digits, spaces and underscores (domain, group and category names). */
export const ALPHANUMERIC = new RegExp("^[A-Za-z0-9_ ]+$", "");

/** Letters, digits, underscore and dot. */
export const NO_SPACES = new RegExp("^[A-Za-z0-9_.]+$", "");

/** Three or more capital letters. */
export const ICAO = new RegExp("^[A-Z]{3,}$", "");

/** A portal name: letters, digits, space, _ - . ( ), not starting with a dash or a space. */
export const PORTAL_NAME = new RegExp("^[A-Za-z0-9_.()][A-Za-z0-9 _.()-]*$", "");

/** A page name: letters, digits, space, _ -, not starting with a dash or a space. */
export const PAGE_NAME = new RegExp("^[A-Za-z0-9_][A-Za-z0-9 _-]*$", "");

/** 1 to 20 letters, digits, dashes or underscores, not starting with a dash. */
export const USERNAME = new RegExp("^[A-Za-z0-9_][A-Za-z0-9_-]{0,19}$", "");

/** A branch name's characters (validate.BranchName adds git's other rules). */
export const BRANCH_NAME = new RegExp("^[A-Za-z0-9][A-Za-z0-9_./-]*$", "");

/** git's special refs: HEAD, FETCH_HEAD, ORIG_HEAD, … */
export const SPECIAL_REF = new RegExp("^([A-Z]+_)*HEAD$", "");

/** A git URL: git, ssh, http(s) or scp-like, ending in .git. */
export const GIT_URL = new RegExp("^((git|ssh|https?)://[^\\s/]+(:\\d+)?/|git@[^\\s:/]+:)[^\\s]*\\.git/?$", "");

/** A commit message: letters, digits, spaces and line breaks. */
export const COMMIT_MESSAGE = new RegExp("^[A-Za-z0-9][A-Za-z0-9 \\r\\n]*$", "");

/** A commit message as git hosts take them: a subject of up to 200 printable characters (any script), then a blank line and a body. */
export const COMMIT_TEXT = new RegExp("^[ \\t\\r\\n]*[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}][\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}]{0,199}(\\r?\\n[ \\t]*\\r?\\n[\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}\\p{Zs}\\t\\r\\n]*)?[ \\t\\r\\n]*$", "u");

/** A person's name: letters and marks, then also space . ' -. */
export const PERSON_NAME = new RegExp("^[\\p{L}\\p{M}][\\p{L}\\p{M} .'-]*$", "u");
