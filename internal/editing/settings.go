package editing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/portalaccess"
	"portalwright/internal/validate"
	"portalwright/internal/workspace"
)

// The portal's own files every feature reads: its settings (portal.json, versioned with its
// branch, spec 3 §3; or kept by Portalwright for a project's repository, below), the
// designer's probe settings and the engine version.

// Portal scopes (spec 3 §3).
const (
	ScopeFull      = "FULL"
	ScopeMicrosite = "MICROSITE"
	ScopeCaptive   = "CAPTIVE"
)

// Settings is portal.json: the portal's settings, versioned with its branch (spec 3 §3).
type Settings struct {
	FormatVersion                 int              `json:"formatVersion,omitempty"`
	Name                          string           `json:"name,omitempty"`
	EngineType                    string           `json:"engineType"`
	SupportLevel                  string           `json:"supportLevel"`
	Scope                         string           `json:"scope"`
	Type                          string           `json:"type,omitempty"`
	OneMediaInterstitialSupported bool             `json:"oneMediaInterstitialSupported"`
	LanguageSettings              LanguageSettings `json:"languageSettings"`
	// Engine settings (spec 2 §3): keep the values a widget's languages had when a new one is
	// created, and store widget data condensed. Pointers tell a missing value (the spec's
	// default) from false.
	RetainLanguageValuesOnCreate *bool              `json:"retainLanguageValuesOnCreate"`
	CondenseWidgetData           *bool              `json:"condenseWidgetData"`
	TaskRunnerSettings           TaskRunnerSettings `json:"taskRunnerSettings"`
	UserGitURLs                  []string           `json:"userGitUrls,omitempty"`
	// SiteRoots are folders served at the site's root besides the usual ones (public/,
	// static/, apps/*/public/, packages/*/public/; a * stands for one folder): a file below
	// one is referenced by its root-relative web path too (asset deletion's reference check).
	SiteRoots []string `json:"siteRoots,omitempty"`
	// CommitMessageRule is the rule commit messages follow: validate.CommitRuleAlphanumeric
	// (the spec's) or validate.CommitRuleAnyText (git hosts' convention). Empty: the
	// portal's default (Workspace.Settings fills it in: ANY_TEXT for a portal imported from a
	// git URL, else ALPHANUMERIC).
	CommitMessageRule string `json:"commitMessageRule,omitempty"`
	// StoredIn says where the settings live (SettingsInRepository, SettingsKept): an answer of
	// Workspace.Settings, never written into portal.json or the kept settings.
	StoredIn string `json:"storedIn,omitempty"`
}

// Where a portal's settings live (Settings.StoredIn).
const (
	// SettingsInRepository: portal.json at the top of the portal's tree, versioned with the
	// branch (portals made here, and repositories that have a portal.json).
	SettingsInRepository = "REPOSITORY"
	// SettingsKept: kept by Portalwright outside the repository, one set per portal (a
	// portal imported from a git URL whose repository has no portal.json): nothing of them
	// is ever committed or pushed to the project's host.
	SettingsKept = "PORTALWRIGHT"
)

// LanguageSettings says which languages a portal has and how they are stored.
type LanguageSettings struct {
	Languages            []string `json:"languages"`
	DefaultLanguage      string   `json:"defaultLanguage"`
	LanguageMode         string   `json:"languageMode"`
	LanguageBasePath     string   `json:"languageBasePath"`
	TranslationsBasePath string   `json:"translationsBasePath"`
	// RetainDefaultsOnCreate keeps the default language's values in a new language (spec 2 §3,
	// default false).
	RetainDefaultsOnCreate bool `json:"retainDefaultsOnCreate"`
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

	// Engine retain and condense defaults (spec 3 §9).
	DefaultRetainLanguageValuesOnCreate = false
	DefaultCondenseWidgetData           = true
)

var (
	engineTypes   = []string{"UNIVERSAL", "JS_ENGINE", "PORTAL_ENGINE", "UNKNOWN"}
	supportLevels = []string{"FULL", "LIMITED"}
	// Scopes a portal can have (spec 3 §3).
	Scopes        = []string{ScopeFull, ScopeMicrosite, ScopeCaptive}
	languageModes = []string{ModeMultiLanguage, ModeSingleLanguage, ModeTranslation}
)

// Language modes of a portal (spec 2 §3, portal.json languageSettings.languageMode): the
// settings own them; every feature reads them here.
const (
	ModeTranslation    = "TRANSLATION"
	ModeMultiLanguage  = "MULTILANGUAGE"
	ModeSingleLanguage = "SINGLE_LANGUAGE"
)

// MultiLanguage tells whether the portal keeps one folder of pages per language.
func (ls LanguageSettings) MultiLanguage() bool { return ls.LanguageMode == ModeMultiLanguage }

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
	if s.RetainLanguageValuesOnCreate == nil {
		s.RetainLanguageValuesOnCreate = ptr(DefaultRetainLanguageValuesOnCreate)
	}
	if s.CondenseWidgetData == nil {
		s.CondenseWidgetData = ptr(DefaultCondenseWidgetData)
	}
	ls := &s.LanguageSettings
	if ls.DefaultLanguage == "" {
		ls.DefaultLanguage = DefaultLanguage
	}
	if len(ls.Languages) == 0 {
		ls.Languages = []string{ls.DefaultLanguage}
	}
	if ls.LanguageMode == "" {
		ls.LanguageMode = ModeTranslation
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

func ptr[T any](v T) *T { return &v }

// Validate checks settings before they are written; the message names the field.
func (s Settings) Validate() error {
	switch {
	case !slices.Contains(engineTypes, s.EngineType):
		return fmt.Errorf("engineType must be one of %s", strings.Join(engineTypes, ", "))
	case !slices.Contains(supportLevels, s.SupportLevel):
		return fmt.Errorf("supportLevel must be FULL or LIMITED")
	case !slices.Contains(Scopes, strings.ToUpper(s.Scope)):
		return fmt.Errorf("scope must be FULL, MICROSITE or CAPTIVE")
	case !slices.Contains(languageModes, s.LanguageSettings.LanguageMode):
		return fmt.Errorf("languageMode must be one of %s", strings.Join(languageModes, ", "))
	case s.CommitMessageRule != "" && !slices.Contains(validate.CommitRules, s.CommitMessageRule):
		return fmt.Errorf("commitMessageRule must be one of %s", strings.Join(validate.CommitRules, ", "))
	}
	for _, l := range s.LanguageSettings.Languages {
		if !validate.LanguageCode(l) {
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

// marshalSettings writes the settings over the existing portal.json (current, nil when
// there is none), keeping keys this version does not know, so older and newer versions can
// share a portal.
func marshalSettings(current []byte, s Settings) ([]byte, error) {
	merged := map[string]json.RawMessage{}
	if current != nil {
		_ = json.Unmarshal(current, &merged)
	}
	known, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(known, &fields); err != nil {
		return nil, err
	}
	for k, v := range fields {
		merged[k] = v
	}
	delete(merged, "storedIn") // an answer, not a setting
	out, err := json.MarshalIndent(merged, "", "  ")
	return append(out, '\n'), err
}

var settingsPath = workspace.MustPath(SettingsFile)

// keptVersion is the version of kept settings at a revision ("kept-0": none kept yet); it
// never equals a file's version, so a save based on portal.json's version is refused when
// the settings moved out of the tree, and the other way round.
func keptVersion(rev int64) workspace.Version {
	return workspace.Version("kept-" + strconv.FormatInt(rev, 10))
}

// settingsSource is where the caller's settings are read and written: the workspace's
// portal.json (file != nil, or missing while the portal keeps none), or the kept settings.
type settingsSource struct {
	file    []byte            // portal.json of the workspace (nil: none)
	version workspace.Version // its version, or the kept settings' version
	kept    bool              // the settings are kept by Portalwright
	keptRaw []byte            // the kept settings (nil: none kept yet)
	keptRev int64
}

// settingsSource decides, in this one place, where the caller's settings live: portal.json
// when the workspace has one (a repository that carries its settings keeps using them);
// else the settings Portalwright keeps when the portal was imported from a git URL or keeps
// some already (a clone of such a portal); else portal.json, missing (the spec's defaults).
func (f *unit) settingsSource(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (settingsSource, error) {
	data, version, err := f.fs.Read(ctx, p, pa, settingsPath)
	switch {
	case err == nil:
		return settingsSource{file: data, version: version}, nil
	case !errors.Is(err, fs.ErrNotExist):
		return settingsSource{}, FileError(err, SettingsFile)
	}
	if f.records == nil {
		return settingsSource{version: workspace.NoVersion}, nil
	}
	raw, rev, err := f.records.KeptSettings(ctx, pa)
	if err != nil {
		return settingsSource{}, err
	}
	if raw == nil && !pa.Record().Imported {
		return settingsSource{version: workspace.NoVersion}, nil
	}
	return settingsSource{kept: true, keptRaw: raw, keptRev: rev, version: keptVersion(rev)}, nil
}

// finish fills in what the settings answer adds to the stored values: where they live and
// the portal's default commit message rule.
func finish(st Settings, pa portalaccess.Portal, kept bool) Settings {
	st.StoredIn = SettingsInRepository
	if kept {
		st.StoredIn = SettingsKept
	}
	if st.CommitMessageRule == "" {
		st.CommitMessageRule = DefaultCommitRule(pa)
	}
	return st
}

// DefaultCommitRule is the commit message rule of a portal whose settings choose none: git
// hosts' convention for a portal imported from a git URL (a project's history), else the
// spec's.
func DefaultCommitRule(pa portalaccess.Portal) string {
	if pa.Record().Imported {
		return validate.CommitRuleAnyText
	}
	return validate.CommitRuleAlphanumeric
}

// Settings reads the caller's settings with the version a save must be based on: the
// workspace's portal.json (the branch they have open), or the settings Portalwright keeps
// for the portal (settingsSource decides). Every feature reads them here.
func (f *Workspace) Settings(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (Settings, workspace.Version, error) {
	src, err := f.settingsSource(ctx, p, pa)
	if err != nil {
		return Settings{}, src.version, err
	}
	data := src.file
	if src.kept {
		data = src.keptRaw
	}
	st, perr := ParseSettings(data)
	st = finish(st, pa, src.kept)
	if perr != nil {
		return st, src.version, apperr.Validation(perr.Error())
	}
	return st, src.version, nil
}

// KeptSettings answers the settings Portalwright keeps for the portal outside its
// repository, or nil when the caller's settings are the workspace's portal.json: what a
// reader of a tree (a commit's, a workspace's) uses when the tree has no portal.json.
func (f *Workspace) KeptSettings(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (*Settings, error) {
	src, err := f.settingsSource(ctx, p, pa)
	if err != nil || !src.kept {
		return nil, err
	}
	st, err := ParseSettings(src.keptRaw)
	if err != nil {
		return nil, apperr.Validation(err.Error())
	}
	st = finish(st, pa, true)
	return &st, nil
}

// SaveSettings writes the caller's settings where they live (settingsSource): portal.json
// in the workspace (a local change, committed like any other, so settings are versioned per
// branch), or the settings Portalwright keeps for the portal (at once, for every branch and
// author; never in the tree). base is the version the edit started from; when the settings
// changed since (another save, a reload, a revert, a branch switch), nothing is written and
// a FILE_CHANGED conflict is returned.
func (f *Workspace) SaveSettings(ctx context.Context, p caller.Caller, pa portalaccess.Portal, in Settings, base workspace.Version) (Settings, workspace.Version, error) {
	in = withDefaults(in)
	in.Scope = strings.ToUpper(in.Scope)
	in.StoredIn = ""
	if err := in.Validate(); err != nil {
		return Settings{}, base, apperr.Validation(err.Error())
	}
	src, err := f.settingsSource(ctx, p, pa)
	if err != nil {
		return Settings{}, base, err
	}
	if !src.kept {
		data, err := marshalSettings(src.file, in)
		if err != nil {
			return Settings{}, base, err
		}
		version, err := f.fs.Write(ctx, p, pa, settingsPath, data, base, SettingsFile)
		if err != nil {
			return Settings{}, base, err
		}
		return finish(in, pa, false), version, nil
	}
	if base != src.version {
		return Settings{}, base, FileError(&workspace.ErrStale{Current: src.version}, SettingsFile)
	}
	data, err := marshalSettings(src.keptRaw, in)
	if err != nil {
		return Settings{}, base, err
	}
	rev, err := f.records.KeepSettings(ctx, p, pa, data, src.keptRev)
	if errors.Is(err, ErrSettingsMoved) {
		_, now, _ := f.records.KeptSettings(ctx, pa) // another save came first
		return Settings{}, base, FileError(&workspace.ErrStale{Current: keptVersion(now)}, SettingsFile)
	}
	if err != nil {
		return Settings{}, base, err
	}
	return finish(in, pa, true), keptVersion(rev), nil
}

// ErrSettingsMoved is what Records.KeepSettings answers when the kept settings are no longer
// at the revision a save was based on.
var ErrSettingsMoved = errors.New("the kept settings changed since they were read")

// ProbeSettingsFile holds a portal's probe settings (the designer's per-portal options).
const ProbeSettingsFile = "probe-settings.json"

var probeSettingsPath = workspace.MustPath(ProbeSettingsFile)

// ProbeSettings reads the probe settings of the user's workspace ({} when there are none)
// with the version a save must be based on.
func (f *Workspace) ProbeSettings(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (json.RawMessage, workspace.Version, error) {
	data, version, err := f.fs.Read(ctx, p, pa, probeSettingsPath)
	if errors.Is(err, fs.ErrNotExist) {
		return json.RawMessage("{}"), workspace.NoVersion, nil
	}
	if err != nil {
		return nil, version, FileError(err, ProbeSettingsFile)
	}
	if !json.Valid(data) {
		return nil, version, apperr.Validation("Could not load probe settings file: it is not valid JSON.")
	}
	return data, version, nil
}

// SaveProbeSettings writes the probe settings into the user's workspace (a local change) if
// the file is still at version base.
func (f *Workspace) SaveProbeSettings(ctx context.Context, p caller.Caller, pa portalaccess.Portal, data json.RawMessage, base workspace.Version) (workspace.Version, error) {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return base, apperr.Validation("The probe settings must be a JSON object.")
	}
	pretty, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return base, err
	}
	return f.fs.Write(ctx, p, pa, probeSettingsPath, append(pretty, '\n'), base, ProbeSettingsFile)
}

// EngineInfo is the answer of the engine-version call.
type EngineInfo struct {
	EngineType    string `json:"engineType"`
	EngineVersion string `json:"engineVersion"` // "" when the portal carries no portal engine
}

var enginePath = workspace.MustPath("engine/portal-engine.js")

var engineVersion = regexp.MustCompile(`VERSION\s*=\s*'([0-9][0-9A-Za-z.\-]*)'`)

// Engine reports the engine type and the version of the engine file in the user's workspace.
func (f *Workspace) Engine(ctx context.Context, p caller.Caller, pa portalaccess.Portal) (*EngineInfo, error) {
	settings, _, err := f.Settings(ctx, p, pa)
	if err != nil {
		return nil, err
	}
	info := &EngineInfo{EngineType: settings.EngineType}
	data, _, err := f.fs.Read(ctx, p, pa, enginePath)
	if err == nil {
		if m := engineVersion.FindSubmatch(data); m != nil {
			info.EngineVersion = string(m[1])
		}
	}
	return info, nil
}
