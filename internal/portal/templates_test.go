package portal_test

import (
	"context"
	"net/http"
	"portalwright/internal/notice"
	"slices"
	"testing"

	"portalwright/internal/portal"
	"portalwright/internal/store"
	"portalwright/internal/store/storetest"
	"portalwright/internal/testkit"
)

// cards are the progress cards of one message type, as status list.
func cards(r *recorder, messageType string) []string {
	var out []string
	for _, n := range r.notes {
		if n.MessageType == messageType {
			out = append(out, n.Status)
		}
	}
	return out
}

func TestTemplateLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		svc, tmpl, d := f.svc, f.tmpl, f.domain
		crew, err := svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Crew"}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}
		if err := f.brs.CreateBranch(ctx, admin, checked(t, svc, d.ID, crew.ID), "release", "master"); err != nil {
			t.Fatal(err)
		}
		other, err := svc.CreateFromTemplate(ctx, admin, d.ID, portal.NewPortal{Name: "Other"}, 0, "crew")
		if err != nil {
			t.Fatal(err)
		}

		t.Run("creating from a portal reports CREATE_TEMPLATE and ends not updating", func(t *testing.T) {
			var whileRunning []bool
			f.progress.hook = func(n notice.Card) {
				if n.Status == "PROGRESS" {
					whileRunning = append(whileRunning, mustTemplate(t, tmpl, d.ID, "Crew base").Updating)
				}
			}
			defer func() { f.progress.hook = nil }()
			tpl, err := tmpl.CreateTemplate(ctx, admin, d.ID, "Crew base", "", &crew.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := cards(f.progress, portal.MessageCreateTemplate); !slices.Equal(got, []string{"PROGRESS", "SUCCESS"}) {
				t.Fatalf("cards %v", got)
			}
			if !slices.Equal(whileRunning, []bool{true}) {
				t.Fatalf("updating while it runs: %v", whileRunning)
			}
			list, _ := tmpl.Templates(ctx, d.ID)
			got := list[len(list)-1]
			if got.ID != tpl.ID || got.Updating || got.UpdateError != "" || got.URL != "" || *got.PortalID != crew.ID {
				t.Fatalf("template %+v", got)
			}
		})
		tpl := mustTemplate(t, tmpl, d.ID, "Crew base")

		t.Run("branches of a template: the source portal's, or master for a starter", func(t *testing.T) {
			for _, ref := range []portal.TemplateRef{{ID: tpl.ID}, {Name: "crew BASE"}} {
				b, err := tmpl.TemplateBranches(ctx, d.ID, ref)
				if err != nil || !slices.Equal(b, []string{"master", "release"}) {
					t.Fatalf("%+v: %v %v", ref, b, err)
				}
			}
			for _, ref := range []portal.TemplateRef{{Starter: "crew"}, {Name: "Crew Portal"}} {
				b, err := tmpl.TemplateBranches(ctx, d.ID, ref)
				if err != nil || !slices.Equal(b, []string{"master"}) {
					t.Fatalf("%+v: %v %v", ref, b, err)
				}
			}
			_, err := tmpl.TemplateBranches(ctx, d.ID, portal.TemplateRef{ID: 9999})
			testkit.APIError(t, err, http.StatusNotFound, "TEMPLATE_NOT_FOUND")
			_, err = tmpl.TemplateBranches(ctx, d.ID, portal.TemplateRef{})
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		})

		t.Run("PUT changes name and source portal, reporting UPDATE_TEMPLATE", func(t *testing.T) {
			got, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "Other base", PortalID: &other.ID,
				Starter: ptr(""), URL: ptr(""), Accounts: []int64{d.ID}})
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "Other base" || *got.PortalID != other.ID || got.Updating || got.UpdateError != "" {
				t.Fatalf("updated %+v", got)
			}
			if c := cards(f.progress, portal.MessageUpdateTemplate); !slices.Equal(c, []string{"PROGRESS", "SUCCESS"}) {
				t.Fatalf("cards %v", c)
			}
		})

		t.Run("a second PUT while one runs is refused", func(t *testing.T) {
			var second error
			f.progress.hook = func(n notice.Card) {
				if n.Status == "PROGRESS" {
					_, second = tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "Other base"})
				}
			}
			defer func() { f.progress.hook = nil }()
			if _, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "Other base"}); err != nil {
				t.Fatal(err)
			}
			testkit.APIError(t, second, http.StatusConflict, "TEMPLATE_UPDATING")
			if got := mustTemplate(t, tmpl, d.ID, "Other base"); got.Updating {
				t.Fatalf("still updating %+v", got)
			}
		})

		t.Run("PUT refuses what may not change", func(t *testing.T) {
			for name, c := range map[string]portal.TemplateChange{
				"url":      {ID: tpl.ID, Name: "X", URL: ptr("https://example.com/x.git")},
				"accounts": {ID: tpl.ID, Name: "X", Accounts: []int64{d.ID, 77}},
				"starter":  {ID: tpl.ID, Name: "X", Starter: ptr("crew")},
				"no id":    {Name: "X"},
				"portal":   {ID: tpl.ID, Name: "X", PortalIDNull: true},
			} {
				_, err := tmpl.UpdateTemplate(ctx, admin, d.ID, c)
				testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
				_ = name
			}
			_, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: 9999, Name: "X"})
			testkit.APIError(t, err, http.StatusNotFound, "TEMPLATE_NOT_FOUND")
			_, err = tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "X", PortalID: ptr(int64(9999))})
			testkit.APIError(t, err, http.StatusNotFound, "PORTAL_NOT_FOUND")
		})

		t.Run("a failed update leaves updateError; creating from an unreadable portal leaves nothing", func(t *testing.T) {
			if err := f.repos.Core().Delete(ctx, other.ID); err != nil { // the source repository is gone
				t.Fatal(err)
			}
			f.progress.notes = nil
			if _, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "Other base"}); err == nil {
				t.Fatal("update of an unreadable source succeeded")
			}
			got := mustTemplate(t, tmpl, d.ID, "Other base")
			if got.Updating || got.UpdateError == "" {
				t.Fatalf("after failure %+v", got)
			}
			if c := cards(f.progress, portal.MessageUpdateTemplate); !slices.Equal(c, []string{"PROGRESS", "ERROR"}) {
				t.Fatalf("cards %v", c)
			}
			if _, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: tpl.ID, Name: "Other base", PortalID: &crew.ID}); err != nil {
				t.Fatal(err)
			}
			if got := mustTemplate(t, tmpl, d.ID, "Other base"); got.UpdateError != "" {
				t.Fatalf("a successful update clears the error: %+v", got)
			}
			if _, err := tmpl.CreateTemplate(ctx, admin, d.ID, "Broken", "", &other.ID); err == nil {
				t.Fatal("create from an unreadable portal succeeded")
			}
			if c := cards(f.progress, portal.MessageCreateTemplate); !slices.Equal(c, []string{"PROGRESS", "ERROR"}) {
				t.Fatalf("cards %v", c)
			}
			list, _ := tmpl.Templates(ctx, d.ID)
			for _, l := range list {
				if l.Name == "Broken" {
					t.Fatalf("a failed create left %+v", l)
				}
			}
		})

		t.Run("a starter template is renamed without a card", func(t *testing.T) {
			st, err := tmpl.CreateTemplate(ctx, admin, d.ID, "Crew starter", "crew", nil)
			if err != nil {
				t.Fatal(err)
			}
			f.progress.notes = nil
			got, err := tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: st.ID, Name: "Crew starter 2", Starter: ptr("crew")})
			if err != nil || got.Name != "Crew starter 2" || len(f.progress.notes) != 0 {
				t.Fatalf("%+v %v %v", got, err, f.progress.notes)
			}
			_, err = tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: st.ID, Name: "X", PortalID: &crew.ID})
			testkit.APIError(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
			_, err = tmpl.UpdateTemplate(ctx, admin, d.ID, portal.TemplateChange{ID: st.ID, Name: "Other base"})
			testkit.APIError(t, err, http.StatusConflict, "TEMPLATE_EXISTS")
		})
	})
}

func mustTemplate(t *testing.T, tmpl *portal.Templates, domainID int64, name string) portal.Template {
	t.Helper()
	list, err := tmpl.Templates(context.Background(), domainID)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range list {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no template %q in %+v", name, list)
	return portal.Template{}
}

func ptr[T any](v T) *T { return &v }
