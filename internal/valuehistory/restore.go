package valuehistory

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"

	"portalwright/internal/apperr"
	"portalwright/internal/caller"
	"portalwright/internal/merge"
	"portalwright/internal/page"
	"portalwright/internal/portalaccess"
	"portalwright/internal/translation"
	"portalwright/internal/workspace"
)

// Translation values: a key in one language's file, or in every language's.

// languageFiles are the languages asked for (lang "" : every one) with their files.
func (s *Service) languageFiles(ctx context.Context, c caller.Caller, pa portalaccess.Portal, key, lang string) (*translation.Translations, []string, error) {
	if strings.TrimSpace(key) == "" {
		return nil, nil, apperr.BadRequest("KEY_REQUIRED", "Say which translation key: ?key=.")
	}
	t, err := s.ed.Translations.Get(ctx, c, pa)
	if err != nil {
		return nil, nil, err
	}
	langs := t.Languages
	if lang != "" {
		if !slices.Contains(t.Languages, lang) {
			return nil, nil, apperr.NotFound(translation.CodeLanguageUnknown, "Failed to load language "+lang)
		}
		langs = []string{lang}
	}
	return t, langs, nil
}

// TranslationValue is the history of a translation key in one language (lang) or every
// language of the portal (lang ""), newest first: uncommitted work first, then by time.
func (s *Service) TranslationValue(ctx context.Context, c caller.Caller, pa portalaccess.Portal, key, lang string) (*History, error) {
	t, langs, err := s.languageFiles(ctx, c, pa, key, lang)
	if err != nil {
		return nil, err
	}
	out := &History{Key: key, Entries: []Entry{}}
	if lang != "" {
		out.Path = t.Files[lang]
	}
	// The languages' files are walked at the same time (each its own git processes).
	got := make([][]Entry, len(langs))
	errs := make([]error, len(langs))
	var wg sync.WaitGroup
	for i, l := range langs {
		wg.Go(func() {
			p, err := cleanPath(t.Files[l])
			if err == nil {
				got[i], err = s.history(ctx, c, pa, p, Target{Key: key})
			}
			errs[i] = err
			for j := range got[i] {
				got[i][j].Lang = l
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for _, entries := range got {
		out.Entries = append(out.Entries, entries...)
	}
	sort.SliceStable(out.Entries, func(i, j int) bool {
		a, b := out.Entries[i], out.Entries[j]
		if a.Uncommitted != b.Uncommitted {
			return a.Uncommitted
		}
		if a.Time == nil || b.Time == nil {
			return false
		}
		return a.Time.After(*b.Time)
	})
	return out, nil
}

// TranslationBlame explains every key of one language's file.
func (s *Service) TranslationBlame(ctx context.Context, c caller.Caller, pa portalaccess.Portal, lang string) (*Blame, error) {
	t, err := s.ed.Translations.Get(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(t.Languages, lang) {
		return nil, apperr.NotFound(translation.CodeLanguageUnknown, "Failed to load language "+lang)
	}
	p, err := cleanPath(t.Files[lang])
	if err != nil {
		return nil, err
	}
	return s.blame(ctx, c, pa, p, true)
}

// Restored is the answer of a restore: the file written and its new version ("" when the
// value already was so and nothing was written).
type Restored struct {
	Path    string  `json:"path"`
	Version string  `json:"version"`
	Changed bool    `json:"changed"`
	Value   *string `json:"value"`
}

// RestoreRequest is the body of a restore: the value as it was after Commit.
type RestoreRequest struct {
	Commit  string `json:"commit"`
	Key     string `json:"key"`     // translations
	Lang    string `json:"lang"`    // translations
	Path    string `json:"path"`    // files
	Pointer string `json:"pointer"` // files
}

// RestoreTranslation sets a key of one language to its value after a commit (removes it when
// the commit removed it) through the Translation Manager's save.
func (s *Service) RestoreTranslation(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req RestoreRequest) (*Restored, error) {
	if req.Lang == "" {
		return nil, apperr.BadRequest("LANGUAGE_REQUIRED", "Say which language's value to restore: lang.")
	}
	h, err := s.TranslationValue(ctx, c, pa, req.Key, req.Lang)
	if err != nil {
		return nil, err
	}
	value, err := pick(h.Entries, req.Commit)
	if err != nil {
		return nil, err
	}
	var text *string
	if value != nil {
		var v string
		if json.Unmarshal([]byte(*value), &v) != nil {
			return nil, notRestorable("the value at that commit is not a text")
		}
		text = &v
	}
	t, err := s.ed.Translations.Get(ctx, c, pa)
	if err != nil {
		return nil, err
	}
	cur, had := t.Data[req.Lang][req.Key]
	if (text == nil && !had) || (text != nil && had && cur == *text) {
		return &Restored{Path: t.Files[req.Lang], Version: t.Versions[req.Lang], Value: value}, nil
	}
	data := make(map[string]json.RawMessage, len(t.Data[req.Lang])+1)
	for k, v := range t.Data[req.Lang] {
		data[k], _ = json.Marshal(v)
	}
	if text == nil {
		delete(data, req.Key)
	} else {
		data[req.Key], _ = json.Marshal(*text)
	}
	saved, err := s.ed.Translations.Save(ctx, c, pa, translation.SaveRequest{
		Data: map[string]map[string]json.RawMessage{req.Lang: data}, Versions: map[string]string{req.Lang: t.Versions[req.Lang]}})
	if err != nil {
		return nil, err
	}
	return &Restored{Path: t.Files[req.Lang], Version: saved.Versions[req.Lang], Changed: true, Value: value}, nil
}

func notRestorable(why string) error {
	return apperr.NewError(http.StatusUnprocessableEntity, "VALUE_NOT_RESTORABLE", "Unprocessable Entity", "The value cannot be restored: "+why+".")
}

// RestoreFile sets the value at a pointer of a file to its value after a commit (removes it
// when the commit removed it) through the asset manager's save: the rest of the file keeps
// its text, a JSON file with a schema must still be valid against it.
func (s *Service) RestoreFile(ctx context.Context, c caller.Caller, pa portalaccess.Portal, req RestoreRequest) (*Restored, error) {
	h, err := s.FileValue(ctx, c, pa, req.Path, req.Pointer)
	if err != nil {
		return nil, err
	}
	value, err := pick(h.Entries, req.Commit)
	if err != nil {
		return nil, err
	}
	p, _ := cleanPath(req.Path)
	raw, version, err := s.files.Read(ctx, c, pa, p)
	if err != nil && req.Pointer != "" {
		return nil, notRestorable("the file is not in your workspace")
	}
	var out []byte
	if req.Pointer == "" {
		if value == nil {
			return nil, notRestorable("the file did not exist after that commit")
		}
		var text string
		_ = json.Unmarshal([]byte(*value), &text)
		out = []byte(text)
		if err != nil {
			version = workspace.NoVersion
		}
	} else if out, err = merge.SetValue(raw, req.Pointer, value); err != nil {
		return nil, notRestorable(err.Error())
	}
	if string(out) == string(raw) && version != workspace.NoVersion {
		return &Restored{Path: p.String(), Version: string(version), Value: value}, nil
	}
	a, err := s.ed.Assets.Save(ctx, c, pa, p, string(out), version)
	if err != nil {
		return nil, err
	}
	return &Restored{Path: p.String(), Version: a.Version, Changed: true, Value: value}, nil
}

// pagePath is the file of a page of the sitemap.
func (s *Service) pagePath(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string) (*page.Page, workspace.Path, error) {
	pg, err := s.ed.Pages.Get(ctx, c, pa, id)
	if err != nil {
		return nil, workspace.Path{}, err
	}
	p, err := cleanPath(pg.Path)
	return pg, p, err
}

// PageValue is the history of a page's file.
func (s *Service) PageValue(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string) (*History, error) {
	_, p, err := s.pagePath(ctx, c, pa, id)
	if err != nil {
		return nil, err
	}
	entries, err := s.history(ctx, c, pa, p, Target{Whole: true})
	if err != nil {
		return nil, err
	}
	return &History{Path: p.String(), Entries: entries}, nil
}

// RestorePage puts a page's file back as it was after a commit, through the Page Manager's
// save (the master page, which is no sitemap entry, is written as the designer saves it).
func (s *Service) RestorePage(ctx context.Context, c caller.Caller, pa portalaccess.Portal, id string, req RestoreRequest) (*Restored, error) {
	pg, p, err := s.pagePath(ctx, c, pa, id)
	if err != nil {
		return nil, err
	}
	entries, err := s.history(ctx, c, pa, p, Target{Whole: true})
	if err != nil {
		return nil, err
	}
	value, err := pick(entries, req.Commit)
	if err != nil {
		return nil, err
	}
	if value == nil {
		return nil, notRestorable("the page had no file after that commit")
	}
	var html string
	_ = json.Unmarshal([]byte(*value), &html)
	if html == pg.HTML && pg.Version != "" {
		return &Restored{Path: p.String(), Version: pg.Version, Value: value}, nil
	}
	if id == page.MasterID {
		base := workspace.Version(pg.Version)
		if pg.Version == "" {
			base = workspace.NoVersion
		}
		v, err := s.files.Write(ctx, c, pa, p, []byte(html), base, p.String())
		if err != nil {
			return nil, err
		}
		return &Restored{Path: p.String(), Version: string(v), Changed: true, Value: value}, nil
	}
	version := pg.Version
	out, err := s.ed.Pages.Update(ctx, c, pa, page.UpdateRequest{ID: id, HTML: &html, Version: &version})
	if err != nil {
		return nil, err
	}
	return &Restored{Path: p.String(), Version: out.Version, Changed: true, Value: value}, nil
}
