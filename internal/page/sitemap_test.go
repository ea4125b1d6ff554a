package page

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestParseSitemap(t *testing.T) {
	data, err := os.ReadFile("../../templates/crew/sitemap.json")
	if err != nil {
		t.Fatal(err)
	}
	root, err := ParseSitemap(data)
	if err != nil || root.ID != MasterID || root.Title != MasterTitle || root.URL != MasterURL || !root.IsMaster || len(root.Children) == 0 {
		t.Fatalf("crew sitemap: %+v %v", root, err)
	}
	var weather *SitemapPage
	for _, p := range root.Children {
		for _, c := range p.Children {
			if c.ID == "weather" {
				weather = c
			}
		}
	}
	if weather == nil || len(weather.Parameters) != 2 || weather.Parameters[0] != (Parameter{"airport", "IATA code of the airport", true}) || weather.Children == nil {
		t.Fatalf("weather: %+v", weather)
	}
	out, _ := json.Marshal(root)
	if !strings.Contains(string(out), `"deactived":false`) || strings.Contains(string(out), `"html"`) {
		t.Fatalf("json: %s", out)
	}
	// Lists may be left out; an object with children is read too.
	root, err = ParseSitemap([]byte(`{"children":[{"id":"a","title":"A","url":"/pages/a.html"}]}`))
	if err != nil || len(root.Children) != 1 || root.Children[0].Parameters == nil || root.Children[0].Children == nil {
		t.Fatalf("object form: %+v %v", root, err)
	}
	for _, bad := range []string{`{`, `"x"`, `[null]`, `[{"id":1}]`} {
		if _, err := ParseSitemap([]byte(bad)); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
	if e := Root(); len(e.Children) != 0 || e.Children == nil {
		t.Fatal("empty root")
	}
}
