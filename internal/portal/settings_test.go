package portal_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"portalwright/internal/portal"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
)

func TestSettingsRetainAndCondenseDefaults(t *testing.T) {
	s, err := portal.ParseSettings([]byte(`{"engineType":"PORTAL_ENGINE"}`))
	if err != nil {
		t.Fatal(err)
	}
	// spec 2 §3 and spec 3 §9: retainDefaultsOnCreate false, retainLanguageValuesOnCreate false,
	// condenseWidgetData true.
	if s.LanguageSettings.RetainDefaultsOnCreate || *s.RetainLanguageValuesOnCreate || !*s.CondenseWidgetData {
		t.Fatalf("defaults %+v", s)
	}
	kept, _ := portal.ParseSettings([]byte(`{"condenseWidgetData":false,"retainLanguageValuesOnCreate":true,"languageSettings":{"retainDefaultsOnCreate":true}}`))
	if !kept.LanguageSettings.RetainDefaultsOnCreate || !*kept.RetainLanguageValuesOnCreate || *kept.CondenseWidgetData {
		t.Fatalf("an explicit value is kept: %+v", kept)
	}
	out, _ := json.Marshal(s)
	for _, want := range []string{`"retainLanguageValuesOnCreate":false`, `"condenseWidgetData":true`, `"retainDefaultsOnCreate":false`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the answer lacks %s: %s", want, out)
		}
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSettingsRetainAndCondenseSaved(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		crew, err := f.svc.CreateFromTemplate(ctx, admin, f.domain.ID, portal.NewPortal{Name: "Crew"}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}
		pa := checked(t, f.svc, f.domain.ID, crew.ID)
		if _, err := f.svc.Open(ctx, ann, pa, "", false); err != nil {
			t.Fatal(err)
		}
		s, v0, err := f.svc.Workspace().Settings(ctx, ann, pa)
		if err != nil || !*s.CondenseWidgetData || *s.RetainLanguageValuesOnCreate {
			t.Fatalf("settings %+v %v", s, err)
		}
		off, on := false, true
		s.CondenseWidgetData, s.RetainLanguageValuesOnCreate, s.LanguageSettings.RetainDefaultsOnCreate = &off, &on, true
		if _, _, err := f.svc.Workspace().SaveSettings(ctx, ann, pa, s, v0); err != nil {
			t.Fatal(err)
		}
		got, _, _ := f.svc.Workspace().Settings(ctx, ann, pa)
		if *got.CondenseWidgetData || !*got.RetainLanguageValuesOnCreate || !got.LanguageSettings.RetainDefaultsOnCreate {
			t.Fatalf("saved %+v", got)
		}
		// A save without them writes the spec's defaults, not null.
		got.CondenseWidgetData, got.RetainLanguageValuesOnCreate = nil, nil
		_, v2, _ := f.svc.Workspace().Settings(ctx, ann, pa)
		if saved, _, err := f.svc.Workspace().SaveSettings(ctx, ann, pa, got, v2); err != nil || !*saved.CondenseWidgetData || *saved.RetainLanguageValuesOnCreate {
			t.Fatalf("defaults on save %+v %v", saved, err)
		}
	})
}
