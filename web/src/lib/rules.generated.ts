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
