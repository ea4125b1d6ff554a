package translation

import (
	"encoding/json"

	"portalwright/internal/editing"
)

// Language modes of a portal: the portal settings' own (editing).
const (
	ModeTranslation    = editing.ModeTranslation
	ModeMultiLanguage  = editing.ModeMultiLanguage
	ModeSingleLanguage = editing.ModeSingleLanguage
)

// Statuses of a translation key (spec 2 §4 "Translations").
const (
	StatusCompleted  = "COMPLETED"
	StatusIncomplete = "INCOMPLETE"
	StatusMissing    = "MISSING"
)

// Reasons of a status; the UI shows the tooltip of Tooltips.
const (
	ReasonNone                = ""
	ReasonRequired            = "REQUIRED"
	ReasonRequiredInOthers    = "REQUIRED_IN_OTHERS"
	ReasonDefaultValueMissing = "DEFAULT_VALUE_MISSING"
	ReasonKeyMissing          = "KEY_MISSING"
	ReasonKeyMissingInOthers  = "KEY_MISSING_IN_OTHERS"
	ReasonKeyMissingInDefault = "KEY_MISSING_IN_DEFAULT"
)

// Tooltips are the spec's words for each reason (spec 2 §8).
var Tooltips = map[string]string{
	ReasonRequired:            "Translation is still required for this key",
	ReasonRequiredInOthers:    "Translation is still required for this key in other languages",
	ReasonDefaultValueMissing: "Translation value is missing in the default language",
	ReasonKeyMissing:          "Translation key is missing in other languages",
	ReasonKeyMissingInOthers:  "Translation key is missing in other languages",
	ReasonKeyMissingInDefault: "Translation key is missing in the default language",
}

// Messages and codes of the translation calls (spec 2 §8).
const (
	CodeContentInvalid  = "CONTENT_VALIDATION_FAILED"
	CodeLanguageUnknown = "LANGUAGE_NOT_FOUND"
	MsgNoKeyPrefix      = "There is no translation key for this widget"
	MsgKeyExists        = "Translation key '%s' already exists"
	MsgCouldNotLoad     = "Could not load translation data for lang '%s'"
	MsgLanguageUnknown  = "Failed to load language %s"
	// Nested keys (not the spec's: its keys are flat).
	MsgKeyEmptyPart   = "Translation key '%s' has an empty level: the levels of a nested key are names joined by single dots (nav.home)"
	MsgKeyControl     = "Translation key '%s' holds a control character"
	MsgKeyTextAndNode = "Translation key '%s' cannot be added below '%s', which holds a text: a key is either a text or a group of keys"
)

// Set is one language's translations: key → value.
type Set map[string]string

// Layout is how a portal's translation files are written (docs/portal-format.md): flat, the
// product's own format (one object key → text, TXT_/IMG_/LNK_ keys upper case), or nested,
// real-world locale JSON (objects whose leaves are texts; a key is the dotted path of its
// levels, "nav.home", kept as written). The default language's file decides; a missing one
// is flat.
type Layout string

const (
	LayoutFlat   Layout = "flat"
	LayoutNested Layout = "nested"
)

// Translations is the answer of GET /translation/{domainId}/{portalId}: every language of the
// portal with its translations and the version a save must be based on ("" for a missing file).
// Layout tells how the keys read (flat: TXT_… keys; nested: dotted paths), Files the file
// of each language (found by its name variants, or the one a save would create).
type Translations struct {
	LanguageMode    string            `json:"languageMode"`
	DefaultLanguage string            `json:"defaultLanguage"`
	Languages       []string          `json:"languages"`
	Layout          Layout            `json:"layout"`
	Files           map[string]string `json:"files"`
	Data            map[string]Set    `json:"data"`
	Versions        map[string]string `json:"versions"`
}

// SaveRequest is the body of PUT /translation/{domainId}/{portalId}. Values are kept raw so a
// value that is not a string is named in the error rather than failing the whole decode.
type SaveRequest struct {
	Data     map[string]map[string]json.RawMessage `json:"data"`
	Versions map[string]string                     `json:"versions"`
}

// Saved is the answer of a save: the new version of every language saved.
type Saved struct {
	Versions map[string]string `json:"versions"`
}

// KeyStatus is the status of one key in one language.
type KeyStatus struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// LanguageStatus is the answer of the status call: every key of every language, as seen from
// one language.
type LanguageStatus struct {
	Language string               `json:"language"`
	Default  bool                 `json:"default"`
	Keys     map[string]KeyStatus `json:"keys"`
}

// ReportKey is a key of a report that is not COMPLETED.
type ReportKey struct {
	Key          string `json:"key"`
	Status       string `json:"status"`
	Reason       string `json:"reason"`
	Value        string `json:"value"`
	DefaultValue string `json:"defaultValue"`
}

// Report counts the statuses of one language and lists the keys still to do, sorted by key.
type Report struct {
	Language   string      `json:"language"`
	Total      int         `json:"total"`
	Completed  int         `json:"completed"`
	Incomplete int         `json:"incomplete"`
	Missing    int         `json:"missing"`
	Keys       []ReportKey `json:"keys"`
}

// RuleError is one broken key rule of a save.
type RuleError struct {
	Message  string `json:"message"`
	Key      string `json:"key"`
	Language string `json:"language"`
}
