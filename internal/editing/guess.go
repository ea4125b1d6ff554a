package editing

import (
	"path"
	"slices"
	"strings"

	xlang "golang.org/x/text/language"
)

// Settings guessed for a portal imported from a git URL (issue 30 item 6): the project's
// locale folder and its languages, so the Translation Manager opens on them.

// localeFolders are the names a project's folder of translations goes by.
var localeFolders = []string{"locales", "locale", "i18n", "l10n", "lang", "langs", "languages", "messages", "translations"}

// skippedFolders hold other projects' files (dependencies, build output).
var skippedFolders = []string{"node_modules", "vendor", "bower_components", "dist", "build", ".git"}

// GuessSettings guesses the settings of an imported repository from its files (slash paths
// from the top): the locale folder with the most languages — a folder named like locales/,
// i18n/, lang/, messages/ at any depth (packages/i18n/src/locales, apps/site/locales) holding
// files named by a language (en.json, fr-FR.json, pt_BR.json) or folders named by one
// (en/common.json) — as translationsBasePath, its languages, English (else the first) as the
// default. ok is false when the repository has its own portal.json or no locale folder.
func GuessSettings(paths []string) (Settings, bool) {
	found := map[string]map[string]bool{} // folder → languages
	add := func(folder, lang string) {
		if found[folder] == nil {
			found[folder] = map[string]bool{}
		}
		found[folder][lang] = true
	}
	for _, p := range paths {
		if p == SettingsFile {
			return Settings{}, false
		}
		if skipped(p) {
			continue
		}
		dir, name := path.Split(p)
		dir = strings.TrimSuffix(dir, "/")
		if isLocaleFolder(dir) && path.Ext(name) == ".json" {
			if l, ok := languageOf(strings.TrimSuffix(name, ".json")); ok {
				add(dir, l)
			}
		}
		if parent := path.Dir(dir); dir != "" && parent != "." && isLocaleFolder(parent) {
			if l, ok := languageOf(path.Base(dir)); ok {
				add(parent, l)
			}
		}
	}
	best := ""
	for folder, langs := range found {
		if best == "" || len(langs) > len(found[best]) ||
			len(langs) == len(found[best]) && (strings.Count(folder, "/") < strings.Count(best, "/") ||
				strings.Count(folder, "/") == strings.Count(best, "/") && folder < best) {
			best = folder
		}
	}
	if best == "" {
		return Settings{}, false
	}
	var langs []string
	for l := range found[best] {
		langs = append(langs, l)
	}
	slices.Sort(langs)
	def := langs[0]
	for _, l := range langs {
		if l == "en" || strings.HasPrefix(l, "en_") {
			def = l
			break
		}
	}
	return withDefaults(Settings{LanguageSettings: LanguageSettings{Languages: langs, DefaultLanguage: def,
		LanguageMode: ModeTranslation, TranslationsBasePath: best}}), true
}

// MarshalKept is the JSON of settings to keep outside a repository (GuessSettings' answer).
func MarshalKept(s Settings) ([]byte, error) { return marshalSettings(nil, s) }

func isLocaleFolder(dir string) bool {
	return dir != "" && dir != "." && slices.Contains(localeFolders, strings.ToLower(path.Base(dir)))
}

func skipped(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if slices.Contains(skippedFolders, part) {
			return true
		}
	}
	return false
}

// languageOf reads a file or folder name as a portal language code: en, fr-FR, pt_br, en-us
// → en, fr_FR, pt_BR, en_US; the language (two letters) and the country must be ones CLDR
// knows, so ui.json or js/ are not taken for languages.
func languageOf(name string) (string, bool) {
	ll, cc, regional := strings.Cut(strings.ReplaceAll(name, "-", "_"), "_")
	if len(ll) != 2 || strings.ToLower(ll) != ll {
		return "", false
	}
	if _, err := xlang.ParseBase(ll); err != nil {
		return "", false
	}
	if !regional {
		return ll, true
	}
	if len(cc) != 2 {
		return "", false
	}
	r, err := xlang.ParseRegion(strings.ToUpper(cc))
	if err != nil || !r.IsCountry() {
		return "", false
	}
	return ll + "_" + strings.ToUpper(cc), true
}
