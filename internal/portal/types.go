// Package portal owns portals as a domain sees them: their metadata (name, type, scope,
// status, category), how they are created (from a template, a git URL or another portal),
// activated, deactivated and deleted, their settings (portal.json, versioned per branch), and
// the calls that drive an author's workspace of a portal (open, branches, local changes,
// commit, revert, reset, other users' changes). The git work itself is internal/workspace.
package portal

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"time"

	"portalwright/internal/editing"
)

// Portal statuses, types and scopes (spec 3 §3).
const (
	StatusActive   = "active"
	StatusInactive = "inactive"

	TypeCrew      = "CREW"
	TypePassenger = "PASSENGER"

	ScopeFull      = "FULL"
	ScopeMicrosite = "MICROSITE"
	ScopeCaptive   = "CAPTIVE"
)

// InactiveGroup is the category the selector shows inactive portals under (spec 1 §2.1).
const InactiveGroup = "Inactive Portals"

// UncategorizedGroup holds active portals without a category.
const UncategorizedGroup = "Uncategorized"

// Portal is a portal's metadata.
type Portal struct {
	ID           int64     `json:"id"`
	DomainID     int64     `json:"domainId"`
	Name         string    `json:"name"`
	Type         string    `json:"type"`
	Scope        string    `json:"scope"`
	Status       string    `json:"status"`
	CategoryID   *int64    `json:"categoryId"`
	Category     string    `json:"category"`
	ActiveBranch string    `json:"activeBranch"`
	URL          string    `json:"url"` // upstream git URL, when imported
	Source       string    `json:"source"`
	CreatedAt    time.Time `json:"createdAt"`
	LastModified time.Time `json:"lastModified"`
	Deactivated  bool      `json:"deactivated"`
}

// Category groups portals.
type Category struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Deactivated bool      `json:"deactivated"` // true when no child is active
	Children    []Portal  `json:"children"`
	CreatedAt   time.Time `json:"createdAt,omitzero"`
}

// Template is what a domain creates portals from.
type Template struct {
	ID           int64   `json:"id"`
	Name         string  `json:"name"`
	TemplateName string  `json:"templateName"`
	Starter      string  `json:"starter,omitempty"`
	PortalID     *int64  `json:"portalId"`
	Accounts     []int64 `json:"accounts"`
	EngineType   string  `json:"engineType,omitempty"`
	Updating     bool    `json:"updating"`
	UpdateError  string  `json:"updateError,omitempty"`
	BuiltIn      bool    `json:"builtIn"`
}

// Settings is portal.json: the portal's settings, versioned with its branch (spec 3 §3).
type Settings struct {
	FormatVersion                 int                `json:"formatVersion,omitempty"`
	Name                          string             `json:"name,omitempty"`
	EngineType                    string             `json:"engineType"`
	SupportLevel                  string             `json:"supportLevel"`
	Scope                         string             `json:"scope"`
	Type                          string             `json:"type,omitempty"`
	OneMediaInterstitialSupported bool               `json:"oneMediaInterstitialSupported"`
	LanguageSettings              LanguageSettings   `json:"languageSettings"`
	TaskRunnerSettings            TaskRunnerSettings `json:"taskRunnerSettings"`
	UserGitURLs                   []string           `json:"userGitUrls,omitempty"`
}

// LanguageSettings says which languages a portal has and how they are stored.
type LanguageSettings struct {
	Languages            []string `json:"languages"`
	DefaultLanguage      string   `json:"defaultLanguage"`
	LanguageMode         string   `json:"languageMode"`
	LanguageBasePath     string   `json:"languageBasePath"`
	TranslationsBasePath string   `json:"translationsBasePath"`
}

// TaskRunnerSettings configure the portal's build tasks.
type TaskRunnerSettings struct {
	Active            bool     `json:"active"`
	AutoRun           bool     `json:"autoRun"`
	Extensions        []string `json:"extensions"`
	OutputPath        string   `json:"outputPath"`
	DockerFileContent string   `json:"dockerFileContent"`
	TemplateName      string   `json:"templateName"`
}

// Defaults of the spec (spec 1 §9, spec 3 §3).
const (
	DefaultEngineType   = "UNKNOWN"
	DefaultSupportLevel = "LIMITED"
	DefaultLanguage     = "en_GB"
	DefaultTranslations = "translations"
	DefaultOutputPath   = "pw-dist"
	SettingsFile        = editing.SettingsFile
)

var (
	engineTypes   = []string{"UNIVERSAL", "JS_ENGINE", "PORTAL_ENGINE", "UNKNOWN"}
	supportLevels = []string{"FULL", "LIMITED"}
	scopes        = []string{ScopeFull, ScopeMicrosite, ScopeCaptive}
	languageModes = []string{"MULTILANGUAGE", "SINGLE_LANGUAGE", "TRANSLATION"}
	portalTypes   = []string{TypeCrew, TypePassenger}
	languageCode  = regexp.MustCompile(`^[a-z]{2,3}(_[A-Z]{2})?$`)
)

// ParseSettings reads portal.json, filling what is missing with the spec's defaults. A
// missing or unreadable file gives the defaults (a legacy portal without settings).
func ParseSettings(data []byte) (Settings, error) {
	var s Settings
	if len(data) > 0 {
		if err := json.Unmarshal(data, &s); err != nil {
			return withDefaults(Settings{}), fmt.Errorf("portal.json is not valid JSON: %w", err)
		}
	}
	return withDefaults(s), nil
}

func withDefaults(s Settings) Settings {
	if s.EngineType == "" {
		s.EngineType = DefaultEngineType
	}
	if s.SupportLevel == "" {
		s.SupportLevel = DefaultSupportLevel // a missing support level is treated as LIMITED
	}
	if s.Scope == "" {
		s.Scope = ScopeFull
	}
	ls := &s.LanguageSettings
	if ls.DefaultLanguage == "" {
		ls.DefaultLanguage = DefaultLanguage
	}
	if len(ls.Languages) == 0 {
		ls.Languages = []string{ls.DefaultLanguage}
	}
	if ls.LanguageMode == "" {
		ls.LanguageMode = "TRANSLATION"
	}
	if ls.TranslationsBasePath == "" {
		ls.TranslationsBasePath = DefaultTranslations
	}
	if s.TaskRunnerSettings.OutputPath == "" {
		s.TaskRunnerSettings.OutputPath = DefaultOutputPath
	}
	if s.TaskRunnerSettings.Extensions == nil {
		s.TaskRunnerSettings.Extensions = []string{}
	}
	return s
}

// Validate checks settings before they are written; the message names the field.
func (s Settings) Validate() error {
	switch {
	case !slices.Contains(engineTypes, s.EngineType):
		return fmt.Errorf("engineType must be one of %s", strings.Join(engineTypes, ", "))
	case !slices.Contains(supportLevels, s.SupportLevel):
		return fmt.Errorf("supportLevel must be FULL or LIMITED")
	case !slices.Contains(scopes, strings.ToUpper(s.Scope)):
		return fmt.Errorf("scope must be FULL, MICROSITE or CAPTIVE")
	case !slices.Contains(languageModes, s.LanguageSettings.LanguageMode):
		return fmt.Errorf("languageMode must be one of %s", strings.Join(languageModes, ", "))
	}
	for _, l := range s.LanguageSettings.Languages {
		if !languageCode.MatchString(l) {
			return fmt.Errorf("'%s' is not a language code like en_GB", l)
		}
	}
	if !slices.Contains(s.LanguageSettings.Languages, s.LanguageSettings.DefaultLanguage) {
		return fmt.Errorf("the default language %s must be one of the portal's languages", s.LanguageSettings.DefaultLanguage)
	}
	for name, p := range map[string]string{"outputPath": s.TaskRunnerSettings.OutputPath, "translationsBasePath": s.LanguageSettings.TranslationsBasePath, "languageBasePath": s.LanguageSettings.LanguageBasePath} {
		if p != "" && !safeRelative(p) {
			return fmt.Errorf("%s must be a folder inside the portal", name)
		}
	}
	return nil
}

// safeRelative tells whether p is a relative path that stays inside the portal.
func safeRelative(p string) bool {
	if strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../") && c != ".git" && !strings.HasPrefix(c, ".git/")
}
