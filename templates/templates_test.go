package templates

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The portal.json keys every template carries (portal format v1).
var portalKeys = []string{"formatVersion", "name", "engineType", "supportLevel", "scope", "type",
	"oneMediaInterstitialSupported", "languageSettings", "taskRunnerSettings"}
var languageKeys = []string{"languages", "defaultLanguage", "languageMode", "languageBasePath", "translationsBasePath"}
var taskRunnerKeys = []string{"active", "autoRun", "extensions", "outputPath", "dockerFileContent", "templateName"}

var editorTypes = []string{"TextInput", "RichTextInput", "CheckBox", "ColorInput", "DropDown", "AssetManager",
	"LinkManager", "PageSelector", "TranslationSelector", "JsonEditor", "SubEditor"}

var (
	reWidget    = regexp.MustCompile(`data-pw-widget="([^"]*)"`)
	reTransKey  = regexp.MustCompile(`data-pw-t(?:-[a-z-]+)?="([^"]*)"`)
	reKey       = regexp.MustCompile(`^(TXT|IMG|LNK)_[A-Z0-9_]+$`)
	reURLAttr   = regexp.MustCompile(`\s(?:src|href)="([^"]*)"`)
	reLangCode  = regexp.MustCompile(`^[a-z]{2,3}_[A-Z]{2}$`)
	reMicrosite = regexp.MustCompile(`^[a-z0-9_-]+$`)
)

type portalSettings struct {
	FormatVersion    int    `json:"formatVersion"`
	Name             string `json:"name"`
	EngineType       string `json:"engineType"`
	SupportLevel     string `json:"supportLevel"`
	Scope            string `json:"scope"`
	Type             string `json:"type"`
	LanguageSettings struct {
		Languages            []string `json:"languages"`
		DefaultLanguage      string   `json:"defaultLanguage"`
		LanguageMode         string   `json:"languageMode"`
		LanguageBasePath     string   `json:"languageBasePath"`
		TranslationsBasePath string   `json:"translationsBasePath"`
	} `json:"languageSettings"`
	TaskRunnerSettings struct {
		Active     bool     `json:"active"`
		AutoRun    bool     `json:"autoRun"`
		Extensions []string `json:"extensions"`
		OutputPath string   `json:"outputPath"`
	} `json:"taskRunnerSettings"`
}

type sitemapPage struct {
	ID         string            `json:"id"`
	Title      string            `json:"title"`
	URL        string            `json:"url"`
	Parameters []json.RawMessage `json:"parameters"`
	HidePage   bool              `json:"hidePage"`
	Status     string            `json:"status"`
	Children   []sitemapPage     `json:"children"`
}

type probeProperty struct {
	Name       string          `json:"name"`
	Label      string          `json:"label"`
	Editor     string          `json:"editor"`
	Options    []any           `json:"options"`
	Default    any             `json:"default"`
	Properties []probeProperty `json:"properties"`
}

type probe struct {
	Name       string          `json:"name"`
	Properties []probeProperty `json:"properties"`
}

type widgetInstance struct {
	Type         string                    `json:"type"`
	Data         map[string]any            `json:"data"`
	MediaQueries map[string]map[string]any `json:"mediaQueries"`
}

func mustFS(t *testing.T, id string) fs.FS {
	t.Helper()
	fsys, err := FS(id)
	if err != nil {
		t.Fatalf("FS(%q): %v", id, err)
	}
	return fsys
}

func readJSON(t *testing.T, fsys fs.FS, name string, v any) bool {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s: invalid JSON: %v", name, err)
		return false
	}
	return true
}

func exists(fsys fs.FS, name string) bool {
	st, err := fs.Stat(fsys, name)
	return err == nil && !st.IsDir()
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

func TestListGetFS(t *testing.T) {
	var ids []string
	for _, s := range List() {
		ids = append(ids, s.ID)
		if s.Name == "" || s.Description == "" {
			t.Errorf("%s: name and description are required", s.ID)
		}
		got, ok := Get(s.ID)
		if !ok || got != s {
			t.Errorf("Get(%q) = %+v, %v", s.ID, got, ok)
		}
	}
	if want := []string{"crew", "passenger", "legacy"}; !slices.Equal(ids, want) {
		t.Fatalf("List() ids = %v, want %v", ids, want)
	}
	l := List()
	l[0].Name = "changed"
	if List()[0].Name == "changed" {
		t.Error("List() must return a copy")
	}
	if _, ok := Get("nope"); ok {
		t.Error("Get(nope) found a template")
	}
	for _, bad := range []string{"nope", "", ".", "crew/pages", "../templates"} {
		if _, err := FS(bad); !errors.Is(err, ErrUnknown) {
			t.Errorf("FS(%q) error = %v, want ErrUnknown", bad, err)
		}
	}
	if !exists(mustFS(t, "crew"), "portal.json") {
		t.Error("FS(crew) is not rooted at the template folder")
	}
}

func TestPortalSettings(t *testing.T) {
	allowed := map[string][]string{
		"engineType":   {"PORTAL_ENGINE", "UNIVERSAL", "JS_ENGINE", "UNKNOWN"},
		"supportLevel": {"FULL", "LIMITED"},
		"scope":        {"FULL", "MICROSITE", "CAPTIVE"},
		"type":         {"CREW", "PASSENGER"},
		"languageMode": {"TRANSLATION", "MULTILANGUAGE", "SINGLE_LANGUAGE", "MULTI", "UNKNOWN"},
	}
	for _, s := range List() {
		t.Run(s.ID, func(t *testing.T) {
			fsys := mustFS(t, s.ID)
			var raw map[string]any
			if !readJSON(t, fsys, "portal.json", &raw) {
				return
			}
			if got := keysOf(raw); !slices.Equal(got, sorted(portalKeys)) {
				t.Errorf("portal.json keys = %v, want %v", got, sorted(portalKeys))
			}
			ls, _ := raw["languageSettings"].(map[string]any)
			if got := keysOf(ls); !slices.Equal(got, sorted(languageKeys)) {
				t.Errorf("languageSettings keys = %v, want %v", got, sorted(languageKeys))
			}
			tr, _ := raw["taskRunnerSettings"].(map[string]any)
			if got := keysOf(tr); !slices.Equal(got, sorted(taskRunnerKeys)) {
				t.Errorf("taskRunnerSettings keys = %v, want %v", got, sorted(taskRunnerKeys))
			}
			var p portalSettings
			if !readJSON(t, fsys, "portal.json", &p) {
				return
			}
			for field, value := range map[string]string{"engineType": p.EngineType, "supportLevel": p.SupportLevel,
				"scope": p.Scope, "type": p.Type, "languageMode": p.LanguageSettings.LanguageMode} {
				if !slices.Contains(allowed[field], value) {
					t.Errorf("%s = %q, want one of %v", field, value, allowed[field])
				}
			}
			if p.FormatVersion != 1 {
				t.Errorf("formatVersion = %d, want 1", p.FormatVersion)
			}
			if p.Name != s.Name || p.EngineType != s.EngineType || p.SupportLevel != s.SupportLevel ||
				p.Scope != s.Scope || p.Type != s.PortalType {
				t.Errorf("portal.json %+v does not match Starter %+v", p, s)
			}
			ls2 := p.LanguageSettings
			if len(ls2.Languages) == 0 || !slices.Contains(ls2.Languages, ls2.DefaultLanguage) {
				t.Errorf("defaultLanguage %q not in languages %v", ls2.DefaultLanguage, ls2.Languages)
			}
			for _, l := range ls2.Languages {
				if !reLangCode.MatchString(l) {
					t.Errorf("language %q is not like en_GB", l)
				}
			}
			if p.TaskRunnerSettings.OutputPath != "pw-dist" {
				t.Errorf("outputPath = %q, want pw-dist", p.TaskRunnerSettings.OutputPath)
			}
		})
	}
}

// TestCrewPortalEngine checks the references of the PORTAL_ENGINE template: sitemap → pages,
// widgets → data → widget types, translation keys, assets and links.
func TestCrewPortalEngine(t *testing.T) {
	for _, s := range List() {
		if s.EngineType != "PORTAL_ENGINE" {
			continue
		}
		t.Run(s.ID, func(t *testing.T) { checkPortalEngine(t, mustFS(t, s.ID)) })
	}
}

func checkPortalEngine(t *testing.T, fsys fs.FS) {
	var settings portalSettings
	readJSON(t, fsys, "portal.json", &settings)
	if settings.LanguageSettings.LanguageMode != "TRANSLATION" {
		t.Fatalf("languageMode = %q, want TRANSLATION", settings.LanguageSettings.LanguageMode)
	}

	// Master page.
	index, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(index), "data-pw-outlet"); n != 1 {
		t.Errorf("index.html has %d page outlets, want 1", n)
	}
	if !strings.Contains(string(index), `src="engine/portal-engine.js"`) {
		t.Error("index.html does not load engine/portal-engine.js")
	}

	// Sitemap and pages.
	var sitemap []sitemapPage
	readJSON(t, fsys, "sitemap.json", &sitemap)
	var pages []sitemapPage
	var walk func([]sitemapPage)
	walk = func(ps []sitemapPage) {
		for _, p := range ps {
			pages = append(pages, p)
			walk(p.Children)
		}
	}
	walk(sitemap)
	if len(pages) < 6 {
		t.Errorf("sitemap has %d pages, want about eight", len(pages))
	}
	pageIDs := map[string]bool{}
	hidden, nested := 0, false
	for _, p := range sitemap {
		nested = nested || len(p.Children) > 0
	}
	htmlFiles := []string{"index.html"}
	for _, p := range pages {
		if p.ID == "" || p.Title == "" || pageIDs[p.ID] {
			t.Errorf("page %+v: id and title are required and ids unique", p)
		}
		pageIDs[p.ID] = true
		if p.URL != "/pages/"+p.ID+".html" {
			t.Errorf("page %s: url = %q, want /pages/%s.html", p.ID, p.URL, p.ID)
		}
		if p.Status != "PUBLISHED" && p.Status != "DRAFT" {
			t.Errorf("page %s: status = %q", p.ID, p.Status)
		}
		if p.Parameters == nil || p.Children == nil {
			t.Errorf("page %s: parameters and children must be lists", p.ID)
		}
		if p.HidePage {
			hidden++
		}
		file := strings.TrimPrefix(p.URL, "/")
		if !exists(fsys, file) {
			t.Errorf("page %s: %s is missing", p.ID, file)
		}
		htmlFiles = append(htmlFiles, file)
	}
	if hidden != 1 || !nested {
		t.Errorf("sitemap: %d hidden pages (want 1), nested = %v", hidden, nested)
	}
	// Every page file is in the sitemap.
	entries, _ := fs.ReadDir(fsys, "pages")
	for _, e := range entries {
		if id := strings.TrimSuffix(e.Name(), ".html"); !pageIDs[id] {
			t.Errorf("pages/%s is not in the sitemap", e.Name())
		}
	}

	// Translations.
	base := settings.LanguageSettings.TranslationsBasePath
	translations := map[string]map[string]string{}
	var refKeys []string
	for _, lang := range settings.LanguageSettings.Languages {
		m := map[string]string{}
		if !readJSON(t, fsys, path.Join(base, lang+".json"), &m) {
			continue
		}
		translations[lang] = m
		for k, v := range m {
			if !reKey.MatchString(k) {
				t.Errorf("%s: key %q is not an upper-case TXT_/IMG_/LNK_ key", lang, k)
			}
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: %s is empty", lang, k)
			}
		}
		if refKeys == nil {
			refKeys = keysOfString(m)
		} else if got := keysOfString(m); !slices.Equal(got, refKeys) {
			t.Errorf("%s.json keys differ from %s.json", lang, settings.LanguageSettings.Languages[0])
		}
	}
	requireKey := func(where, key string) {
		if !reKey.MatchString(key) {
			t.Errorf("%s: %q is not a translation key", where, key)
			return
		}
		for lang, m := range translations {
			if _, ok := m[key]; !ok {
				t.Errorf("%s: key %s missing in %s", where, key, lang)
			}
		}
	}

	// Widget types.
	types := map[string]probe{}
	modules, err := fs.ReadDir(fsys, "widgets/modules")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range modules {
		dir := "widgets/modules/" + m.Name()
		var p probe
		if !readJSON(t, fsys, dir+"/config.probe.json", &p) {
			continue
		}
		for _, e := range validateProbe(p.Properties, "") {
			t.Errorf("%s/config.probe.json: %s", dir, e)
		}
		if p.Name == "" {
			t.Errorf("%s/config.probe.json: name is required", dir)
		}
		tpl, err := fs.ReadFile(fsys, dir+"/template.html")
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if err := checkTemplateSyntax(string(tpl)); err != nil {
			t.Errorf("%s/template.html: %v", dir, err)
		}
		htmlFiles = append(htmlFiles, dir+"/template.html")
		types[m.Name()] = p
	}
	if len(types) < 4 || len(types) > 6 {
		t.Errorf("%d widget types, want 4 to 6", len(types))
	}

	// Markup: widgets, translation keys, local src/href.
	usedWidgets := map[string]bool{}
	for _, file := range htmlFiles {
		b, err := fs.ReadFile(fsys, file)
		if err != nil {
			continue
		}
		html := string(b)
		for _, m := range reWidget.FindAllStringSubmatch(html, -1) {
			usedWidgets[m[1]] = true
		}
		for _, m := range reTransKey.FindAllStringSubmatch(html, -1) {
			requireKey(file, m[1])
		}
		for _, m := range reURLAttr.FindAllStringSubmatch(html, -1) {
			checkLink(t, fsys, file, m[1], pageIDs)
		}
	}
	if len(usedWidgets) == 0 {
		t.Error("no widgets used")
	}

	// Widget instances.
	dbEntries, _ := fs.ReadDir(fsys, "widgets/database")
	for _, e := range dbEntries {
		if id := strings.TrimSuffix(e.Name(), ".json"); !usedWidgets[id] {
			t.Errorf("widgets/database/%s is not used by any page", e.Name())
		}
	}
	for id := range usedWidgets {
		file := "widgets/database/" + id + ".json"
		var w widgetInstance
		if !readJSON(t, fsys, file, &w) {
			continue
		}
		p, ok := types[w.Type]
		if !ok {
			t.Errorf("%s: type %q has no widgets/modules/%s", file, w.Type, w.Type)
			continue
		}
		checkWidgetData(t, fsys, file, p.Properties, w.Data, requireKey, pageIDs)
		for q, over := range w.MediaQueries {
			if !strings.HasPrefix(q, "(") {
				t.Errorf("%s: media query %q", file, q)
			}
			checkWidgetData(t, fsys, file+" "+q, p.Properties, over, requireKey, pageIDs)
		}
	}

	// IMG_ and LNK_ values resolve.
	for _, lang := range settings.LanguageSettings.Languages {
		for k, v := range translations[lang] {
			switch {
			case strings.HasPrefix(k, "IMG_"):
				if !exists(fsys, v) {
					t.Errorf("%s %s: image %q does not exist", lang, k, v)
				}
			case strings.HasPrefix(k, "LNK_"):
				checkLink(t, fsys, lang+" "+k, v, pageIDs)
			}
		}
	}
	// Microsites: microsites/<name>/index.html, name lowercased with non-word characters as dashes.
	sites, err := fs.ReadDir(fsys, "microsites")
	if err != nil || len(sites) == 0 {
		t.Errorf("no microsites: %v", err)
	}
	for _, d := range sites {
		if !d.IsDir() || !reMicrosite.MatchString(d.Name()) || !exists(fsys, "microsites/"+d.Name()+"/index.html") {
			t.Errorf("microsite %q: want a folder named like the link rule with an index.html", d.Name())
		}
	}

	// Assets: small images.
	var assetsTotal int64
	fs.WalkDir(fsys, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, _ := d.Info()
		assetsTotal += info.Size()
		if info.Size() >= 30<<10 {
			t.Errorf("%s is %d bytes, keep assets under 30 KB", p, info.Size())
		}
		return nil
	})
	if assetsTotal >= 200<<10 {
		t.Errorf("assets total %d bytes, want < 200 KB", assetsTotal)
	}

	// The engine copy is the engine.
	want, err := os.ReadFile(filepath.Join("..", "engine", "portal-engine.js"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(fsys, "engine/portal-engine.js")
	if err != nil || !bytes.Equal(got, want) {
		t.Error("engine/portal-engine.js differs from the repository's engine/portal-engine.js; copy it again")
	}
}

func keysOfString(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func validateProbe(props []probeProperty, at string) []string {
	var errs []string
	seen := map[string]bool{}
	for _, p := range props {
		where := at + "properties[" + p.Name + "]"
		if p.Name == "" || seen[p.Name] {
			errs = append(errs, where+": name missing or duplicated")
		}
		seen[p.Name] = true
		if p.Label == "" {
			errs = append(errs, where+": label is required")
		}
		if !slices.Contains(editorTypes, p.Editor) {
			errs = append(errs, where+": unknown editor "+p.Editor)
		}
		if p.Editor == "DropDown" {
			if len(p.Options) == 0 {
				errs = append(errs, where+": DropDown needs options")
			} else if p.Default != nil && !slices.Contains(p.Options, p.Default) {
				errs = append(errs, where+": default is not one of the options")
			}
		}
		if p.Editor == "SubEditor" {
			if len(p.Properties) == 0 {
				errs = append(errs, where+": SubEditor needs properties")
			}
			errs = append(errs, validateProbe(p.Properties, where+".")...)
		}
	}
	if len(props) == 0 && at == "" {
		errs = append(errs, "no properties")
	}
	return errs
}

// checkTemplateSyntax mirrors the engine's small template language: {{path}}, {{#each p}}…{{/each}},
// {{#if p}}…{{else}}…{{/if}}.
func checkTemplateSyntax(tpl string) error {
	re := regexp.MustCompile(`\{\{\s*(#each|#if|/each|/if|else)?\s*([\w.@$-]*)\s*\}\}`)
	var stack []string
	for _, m := range re.FindAllStringSubmatch(tpl, -1) {
		switch m[1] {
		case "#each", "#if":
			if m[2] == "" {
				return errors.New(m[0] + " needs a path")
			}
			stack = append(stack, m[1][1:])
		case "else":
			if len(stack) == 0 || stack[len(stack)-1] != "if" {
				return errors.New("{{else}} outside {{#if}}")
			}
		case "/each", "/if":
			if len(stack) == 0 || stack[len(stack)-1] != m[1][1:] {
				return errors.New("unbalanced " + m[0])
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return errors.New("unclosed {{#" + stack[len(stack)-1] + "}}")
	}
	if strings.Count(tpl, "{{") != len(re.FindAllString(tpl, -1)) {
		return errors.New("a {{…}} tag the engine does not understand")
	}
	return nil
}

func checkWidgetData(t *testing.T, fsys fs.FS, where string, props []probeProperty, data map[string]any,
	requireKey func(string, string), pageIDs map[string]bool) {
	t.Helper()
	byName := map[string]probeProperty{}
	for _, p := range props {
		byName[p.Name] = p
	}
	for k, v := range data {
		p, ok := byName[k]
		if !ok {
			t.Errorf("%s: %q is not a property of its widget type", where, k)
			continue
		}
		str, isStr := v.(string)
		switch p.Editor {
		case "TranslationSelector":
			if isStr && str != "" {
				requireKey(where+" "+k, str)
			}
		case "AssetManager":
			if isStr && str != "" && !exists(fsys, str) {
				t.Errorf("%s %s: asset %q does not exist", where, k, str)
			}
		case "LinkManager":
			if obj, ok := v.(map[string]any); ok {
				str, _ = obj["value"].(string)
				if _, ok := obj["type"].(string); !ok {
					t.Errorf("%s %s: link object needs a type", where, k)
				}
			}
			if str != "" {
				checkLink(t, fsys, where+" "+k, str, pageIDs)
			}
		case "PageSelector":
			if isStr && str != "" && !pageIDs[str] {
				t.Errorf("%s %s: page %q is not in the sitemap", where, k, str)
			}
		case "DropDown":
			if !slices.Contains(p.Options, v) {
				t.Errorf("%s %s: %v is not one of %v", where, k, v, p.Options)
			}
		case "CheckBox":
			if _, ok := v.(bool); !ok {
				t.Errorf("%s %s: want true or false", where, k)
			}
		case "ColorInput":
			if !regexp.MustCompile(`^#[0-9a-fA-F]{3,8}$`).MatchString(str) {
				t.Errorf("%s %s: colour %v", where, k, v)
			}
		case "SubEditor":
			items, ok := v.([]any)
			if !ok {
				t.Errorf("%s %s: want a list", where, k)
				continue
			}
			for i, it := range items {
				m, ok := it.(map[string]any)
				if !ok {
					t.Errorf("%s %s[%d]: want an object", where, k, i)
					continue
				}
				checkWidgetData(t, fsys, where+" "+k, p.Properties, m, requireKey, pageIDs)
			}
		}
	}
}

// checkLink: internal links (#/<page>) name a sitemap page; relative links name a file.
func checkLink(t *testing.T, fsys fs.FS, where, link string, pageIDs map[string]bool) {
	t.Helper()
	switch {
	case strings.Contains(link, "{{"):
		return // a template placeholder
	case strings.HasPrefix(link, "#/"):
		id := strings.SplitN(strings.TrimPrefix(link, "#/"), "?", 2)[0]
		id = strings.SplitN(id, "/", 2)[0]
		if !pageIDs[id] {
			t.Errorf("%s: link %q names no sitemap page", where, link)
		}
	case link == "" || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "?"),
		strings.HasPrefix(link, "https://"), strings.HasPrefix(link, "mailto:"):
		return
	case strings.Contains(link, ":"):
		t.Errorf("%s: link %q has an unexpected scheme", where, link)
	default:
		file := strings.SplitN(strings.SplitN(link, "#", 2)[0], "?", 2)[0]
		if !exists(fsys, path.Clean(file)) {
			t.Errorf("%s: %q does not exist", where, link)
		}
	}
}

func TestUniversalContent(t *testing.T) {
	for _, s := range List() {
		if s.EngineType != "UNIVERSAL" {
			continue
		}
		t.Run(s.ID, func(t *testing.T) {
			fsys := mustFS(t, s.ID)
			var settings portalSettings
			readJSON(t, fsys, "portal.json", &settings)
			ls := settings.LanguageSettings
			if ls.LanguageMode != "MULTILANGUAGE" || !settings.TaskRunnerSettings.Active {
				t.Errorf("want MULTILANGUAGE with an active task runner, got %+v", settings)
			}
			for _, f := range []string{"build.js", "README.md"} {
				if !exists(fsys, f) {
					t.Errorf("%s is missing", f)
				}
			}
			var names []string
			for i, lang := range ls.Languages {
				dir := path.Join(ls.LanguageBasePath, lang)
				entries, err := fs.ReadDir(fsys, dir)
				if err != nil {
					t.Errorf("%s: %v", dir, err)
					continue
				}
				var here []string
				for _, e := range entries {
					if strings.HasSuffix(e.Name(), ".json.schema") {
						continue // a companion schema, read with its content file below
					}
					name, ok := strings.CutSuffix(e.Name(), ".json")
					if !ok {
						t.Errorf("%s/%s: content files are JSON", dir, e.Name())
						continue
					}
					here = append(here, name)
					var content any
					readJSON(t, fsys, dir+"/"+e.Name(), &content)
					// The JSON editor's convention: the schema of <path> is <path>.schema.
					schemaPath := dir + "/" + e.Name() + ".schema"
					var schema map[string]any
					if !readJSON(t, fsys, schemaPath, &schema) {
						continue
					}
					if schema["$schema"] != "http://json-schema.org/draft-07/schema#" || schema["title"] == nil || schema["description"] == nil {
						t.Errorf("%s: want a draft-07 schema with title and description", schemaPath)
					}
					for _, problem := range checkSchema(schema, content, "$") {
						t.Errorf("%s/%s: %s", dir, e.Name(), problem)
					}
				}
				if i == 0 {
					names = here
				} else if !slices.Equal(here, names) {
					t.Errorf("%s has %v, want the same files as %s: %v", dir, here, ls.Languages[0], names)
				}
			}
			if len(names) < 3 {
				t.Errorf("content files %v, want at least three", names)
			}
			entries, err := fs.ReadDir(fsys, "widgets/database")
			if err != nil || len(entries) == 0 {
				t.Errorf("widgets/database: %v", err)
			}
			for _, e := range entries {
				var w widgetInstance
				if readJSON(t, fsys, "widgets/database/"+e.Name(), &w) && (w.Type == "" || w.Data == nil) {
					t.Errorf("widgets/database/%s: want {type, data}", e.Name())
				}
			}
		})
	}
}

// checkSchema is a small draft-07 subset (type, required, properties, items, enum) — enough to keep
// the starter content and its schemas in step. build.js validates the rest when it runs.
func checkSchema(schema map[string]any, v any, at string) []string {
	var errs []string
	typeOf := func(v any) string {
		switch x := v.(type) {
		case nil:
			return "null"
		case bool:
			return "boolean"
		case string:
			return "string"
		case float64:
			if x == float64(int64(x)) {
				return "integer"
			}
			return "number"
		case []any:
			return "array"
		case map[string]any:
			return "object"
		}
		return "unknown"
	}
	got := typeOf(v)
	if want, ok := schema["type"].(string); ok && want != got && !(want == "number" && got == "integer") {
		return []string{at + ": want " + want + ", got " + got}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.Contains(enum, v) {
		errs = append(errs, at+": not one of the enum values")
	}
	switch x := v.(type) {
	case map[string]any:
		req, _ := schema["required"].([]any)
		for _, r := range req {
			if _, ok := x[r.(string)]; !ok {
				errs = append(errs, at+"."+r.(string)+": required")
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, val := range x {
			sub, ok := props[k].(map[string]any)
			if !ok {
				errs = append(errs, at+"."+k+": not in the schema")
				continue
			}
			if sub["title"] == nil {
				errs = append(errs, at+"."+k+": schema property has no title")
			}
			errs = append(errs, checkSchema(sub, val, at+"."+k)...)
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, it := range x {
				errs = append(errs, checkSchema(items, it, at+"["+strconv.Itoa(i)+"]")...)
			}
		}
	}
	return errs
}

// TestUniversalBuild runs the template's build.js with node, when node is installed.
func TestUniversalBuild(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	for _, s := range List() {
		if s.EngineType != "UNIVERSAL" {
			continue
		}
		t.Run(s.ID, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, mustFS(t, s.ID)); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(node, filepath.Join(dir, "build.js")).CombinedOutput()
			if err != nil {
				t.Fatalf("node build.js: %v\n%s", err, out)
			}
			var settings portalSettings
			readJSON(t, mustFS(t, s.ID), "portal.json", &settings)
			want := []string{"index.html"}
			for _, l := range settings.LanguageSettings.Languages {
				want = append(want, l+"/index.html", l+"/data.json")
			}
			for _, f := range want {
				if _, err := os.Stat(filepath.Join(dir, "pw-dist", f)); err != nil {
					t.Errorf("build output: %v", err)
				}
			}
			var bundle struct {
				Language string                    `json:"language"`
				Content  map[string]map[string]any `json:"content"`
				Widgets  map[string]any            `json:"widgets"`
			}
			b, _ := os.ReadFile(filepath.Join(dir, "pw-dist", settings.LanguageSettings.DefaultLanguage, "data.json"))
			if err := json.Unmarshal(b, &bundle); err != nil || len(bundle.Content) == 0 || len(bundle.Widgets) == 0 {
				t.Errorf("data bundle: %v %s", err, b)
			}
			// A content file that breaks its schema fails the build.
			bad := filepath.Join(dir, settings.LanguageSettings.LanguageBasePath, settings.LanguageSettings.DefaultLanguage, "menu.json")
			if err := os.WriteFile(bad, []byte(`{"title":"","currency":"XXX","sections":[]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(node, filepath.Join(dir, "build.js"), "--check").CombinedOutput(); err == nil {
				t.Errorf("build.js --check accepted invalid content:\n%s", out)
			}
		})
	}
}

func TestLegacyStatic(t *testing.T) {
	for _, s := range List() {
		if s.SupportLevel != "LIMITED" {
			continue
		}
		t.Run(s.ID, func(t *testing.T) {
			fsys := mustFS(t, s.ID)
			for _, dir := range []string{"css", "js", "img"} {
				if entries, err := fs.ReadDir(fsys, dir); err != nil || len(entries) == 0 {
					t.Errorf("%s/: %v", dir, err)
				}
			}
			htmls, _ := fs.Glob(fsys, "*.html")
			if !slices.Contains(htmls, "index.html") || len(htmls) < 3 {
				t.Errorf("html pages %v, want index.html and a few more", htmls)
			}
			for _, h := range htmls {
				b, _ := fs.ReadFile(fsys, h)
				if strings.Contains(string(b), "data-pw-") {
					t.Errorf("%s: a LIMITED portal does not use the portal engine", h)
				}
				for _, m := range reURLAttr.FindAllStringSubmatch(string(b), -1) {
					checkLink(t, fsys, h, m[1], nil)
				}
			}
		})
	}
}

func TestEmbeddedSize(t *testing.T) {
	var total int64
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(p, "/pw-dist/") || strings.Contains(p, "/node_modules/") {
			t.Errorf("%s: build output must not be embedded", p)
		}
		info, err := d.Info()
		if err == nil {
			total += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if total >= 2<<20 {
		t.Errorf("embedded templates are %d bytes, want < 2 MB", total)
	}
	t.Logf("embedded templates: %d bytes", total)
}
