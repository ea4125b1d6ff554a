package editing_test

import (
	"slices"
	"testing"

	"portalwright/internal/editing"
)

// Issue 30 item 6: an imported repository's locale folder and languages are guessed.
func TestGuessSettings(t *testing.T) {
	for _, c := range []struct {
		name  string
		paths []string
		base  string
		langs []string
		def   string
	}{
		{"top locales", []string{"index.html", "locales/en.json", "locales/fr-FR.json", "locales/pt-br.json", "locales/README.md"}, "locales", []string{"en", "fr_FR", "pt_BR"}, "en"},
		{"nested monorepo", []string{"apps/site/pages/en/index.mdx", "packages/i18n/src/locales/en.json", "packages/i18n/src/locales/de.json",
			"packages/i18n/src/locales/ja.json", "packages/i18n/src/index.ts", "apps/site/i18n/en.json"}, "packages/i18n/src/locales", []string{"de", "en", "ja"}, "en"},
		{"apps star locales", []string{"apps/web/locales/it.json", "apps/web/locales/es.json"}, "apps/web/locales", []string{"es", "it"}, "es"},
		{"folders per language", []string{"i18n/en/common.json", "i18n/en/home.json", "i18n/fr/common.json", "i18n/en_US/common.json"}, "i18n", []string{"en", "en_US", "fr"}, "en"},
		{"messages and lang", []string{"messages/de.json", "messages/nl.json", "lang/en.json"}, "messages", []string{"de", "nl"}, "de"},
		{"not languages", []string{"locales/ui.json", "locales/index.json", "lang/js/app.js", "node_modules/x/locales/en.json"}, "", nil, ""},
		{"own portal.json", []string{"portal.json", "locales/en.json"}, "", nil, ""},
	} {
		st, ok := editing.GuessSettings(c.paths)
		if c.base == "" {
			if ok {
				t.Errorf("%s: guessed %+v", c.name, st.LanguageSettings)
			}
			continue
		}
		ls := st.LanguageSettings
		if !ok || ls.TranslationsBasePath != c.base || !slices.Equal(ls.Languages, c.langs) || ls.DefaultLanguage != c.def || ls.LanguageMode != editing.ModeTranslation {
			t.Errorf("%s: %v %+v, want %s %v %s", c.name, ok, ls, c.base, c.langs, c.def)
		}
		if err := st.Validate(); err != nil {
			t.Errorf("%s: the guess does not validate: %v", c.name, err)
		}
	}
}
