package app

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"portalwright/internal/testkit"
)

// Issue 9 item 7 over HTTP: a template carries url, updating and updateError; PUT takes the
// whole object; the create-from-template dialog reads a template's branches.
func TestTemplatesOverHTTP(t *testing.T) {
	cfg := testConfig(t)
	cfg.Demo = true
	cfg.AdminPassword = "admin-pass"
	srv := start(t, cfg)
	admin := testkit.Login(t, srv.base, "admin", "admin-pass")
	api := srv.base + "/api/v1"

	got := testkit.Call(t, "POST", api+"/template/accounts/1/templates", admin, `{"templateName":"From portal one","portalId":1}`)
	if got.Status != 201 {
		t.Fatalf("create: %d %s", got.Status, got.Body)
	}
	var tpl map[string]any
	if err := json.Unmarshal([]byte(got.Body), &tpl); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"url", "updating", "updateError", "accounts", "portalId"} {
		if _, ok := tpl[k]; !ok {
			t.Errorf("the template lacks %s: %s", k, got.Body)
		}
	}
	if tpl["updating"] != false || tpl["updateError"] != "" {
		t.Fatalf("after create %s", got.Body)
	}
	id := strconv.FormatInt(int64(tpl["id"].(float64)), 10)

	t.Run("PUT takes the whole object back", func(t *testing.T) {
		tpl["templateName"] = "Renamed"
		body, _ := json.Marshal(tpl)
		got := testkit.Call(t, "PUT", api+"/template/accounts/1/templates", admin, string(body))
		if got.Status != 200 || !strings.Contains(got.Body, `"name":"Renamed"`) {
			t.Fatalf("put: %d %s", got.Status, got.Body)
		}
		for field, bad := range map[string]string{
			"url":      `{"id":` + id + `,"templateName":"Renamed","url":"https://example.com/x.git"}`,
			"accounts": `{"id":` + id + `,"templateName":"Renamed","accounts":[1,2]}`,
			"portalId": `{"id":` + id + `,"templateName":"Renamed","portalId":null}`,
		} {
			got := testkit.Call(t, "PUT", api+"/template/accounts/1/templates", admin, bad)
			if got.Status != 400 || got.Code != "VALIDATION_ERROR" || !strings.HasPrefix(got.Message, field) {
				t.Errorf("%s: %d %s", field, got.Status, got.Body)
			}
		}
	})

	t.Run("branches of a template", func(t *testing.T) {
		for body, want := range map[string]string{
			`{"id":` + id + `}`:    `"master"`,
			`{"starter":"crew"}`:   `{"allReferences":["master"]}`,
			`{"templateName":"x"}`: `TEMPLATE_NOT_FOUND`,
		} {
			got := testkit.Call(t, "POST", api+"/portal_branch/branches/template/1/", admin, body)
			if !strings.Contains(got.Body, want) {
				t.Errorf("%s: %d %s", body, got.Status, got.Body)
			}
		}
	})

	t.Run("a portal from a template opens on the branch chosen", func(t *testing.T) {
		if got := testkit.Call(t, "POST", api+"/portal/1/1/branches", admin, `{"name":"feature/summer"}`); got.Status >= 300 {
			t.Fatalf("branch: %d %s", got.Status, got.Body)
		}
		got := testkit.Call(t, "POST", api+"/portal/create_template/1", admin,
			`{"name":"Summer Portal","type":"CREW","scope":"FULL","templateId":`+id+`,"branch":"feature/summer"}`)
		if got.Status != 201 || !strings.Contains(got.Body, `"activeBranch":"feature/summer"`) {
			t.Fatalf("create on a branch: %d %s", got.Status, got.Body)
		}
		got = testkit.Call(t, "POST", api+"/portal/create_template/1", admin,
			`{"name":"Nowhere Portal","type":"CREW","scope":"FULL","templateId":`+id+`,"branch":"no-such-branch"}`)
		if got.Status != 400 || !strings.Contains(got.Message, "no-such-branch") {
			t.Fatalf("a branch the template lacks: %d %s", got.Status, got.Body)
		}
		if list := testkit.Call(t, "GET", api+"/portal/1", admin, ""); strings.Contains(list.Body, "Nowhere Portal") {
			t.Fatalf("a refused portal was created: %s", list.Body)
		}
	})
}
