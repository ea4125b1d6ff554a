package merge

import (
	"strings"
	"testing"
)

func mustDoc(t *testing.T, s string) *Doc {
	t.Helper()
	d, err := ParseDoc([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPointerValueAndFollow(t *testing.T) {
	older := mustDoc(t, `{"menu":[{"id":1,"title":"Soup"},{"id":2,"title":"Salad"}],"a/b":{"~":"x"},"list":["p","q","p"]}`)
	newer := mustDoc(t, `{"menu":[{"id":3,"title":"Pie"},{"id":2,"title":"Green salad"},{"id":1,"title":"Soup"}],"a/b":{"~":"x"},"list":["q","p","p"]}`)
	if v := newer.Value("/menu/1/title"); v == nil || *v != `"Green salad"` {
		t.Fatalf("value: %v", v)
	}
	if v := newer.Value("/a~1b/~0"); v == nil || *v != `"x"` {
		t.Fatalf("escaped pointer: %v", v)
	}
	for _, c := range []struct{ in, want string }{
		{"/menu/1/title", "/menu/1/title"},
		{"/menu/2/title", "/menu/0/title"}, // the item moved
		{"/a~1b/~0", "/a~1b/~0"},
		{"/list/2", "/list/2"}, // the second "p" is the second "p"
		{"/list/0", "/list/1"},
	} {
		got, ok := Follow(newer, older, c.in)
		if !ok || got != c.want {
			t.Errorf("Follow(%s) = %q %v, want %q", c.in, got, ok, c.want)
		}
	}
	if _, ok := Follow(newer, older, "/menu/0/title"); ok {
		t.Error("an item added later has no older value")
	}
	if Same(newer, "/menu/1/title", older, "/menu/1/title") || !Same(newer, "/menu/2", older, "/menu/0") {
		t.Error("Same")
	}
	for _, bad := range []string{"menu", "/menu/01", "/menu/-1", "/menu/9", "/x~2"} {
		if newer.Value(bad) != nil {
			t.Errorf("%q has a value", bad)
		}
	}
}

func TestLeaves(t *testing.T) {
	d := mustDoc(t, `{"nav":{"home":"Home","list":[]},"menu":[{"id":"a","t":1}]}`)
	var got []string
	for _, l := range d.Leaves(true) {
		got = append(got, l.Pointer+"="+l.Path)
	}
	want := "/nav/home=nav.home /nav/list=nav.list /menu/0/id=menu.a.id /menu/0/t=menu.a.t"
	if strings.Join(got, " ") != want {
		t.Fatalf("leaves %q", strings.Join(got, " "))
	}
}

func TestSetValueKeepsTheRest(t *testing.T) {
	src := "{\n    \"b\": 1,\n    \"a\": {\"x\": [1, 2], \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"two\"}\n    ]\n}\n"
	cases := []struct {
		ptr   string
		value *string
		want  string
	}{
		{"/b", ptrTo(`2`), "{\n    \"b\": 2,\n    \"a\": {\"x\": [1, 2], \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"two\"}\n    ]\n}\n"},
		{"/list/1/t", ptrTo(`"deux"`), "{\n    \"b\": 1,\n    \"a\": {\"x\": [1, 2], \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"deux\"}\n    ]\n}\n"},
		// An object written over a value: in the file's layout at its depth.
		{"/a/x", ptrTo(`{"k":[1]}`), "{\n    \"b\": 1,\n    \"a\": {\"x\": {\n            \"k\": [\n                1\n            ]\n        }, \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"two\"}\n    ]\n}\n"},
		{"/b", nil, "{\n    \"a\": {\"x\": [1, 2], \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"two\"}\n    ]\n}\n"},
		{"/c", ptrTo(`"new"`), "{\n    \"b\": 1,\n    \"a\": {\"x\": [1, 2], \"y\": \"é\\u00e9\"},\n    \"list\": [\n        {\"id\": 1, \"t\": \"one\"},\n        {\"id\": 2, \"t\": \"two\"}\n    ],\n    \"c\": \"new\"\n}\n"},
	}
	for _, c := range cases {
		got, err := SetValue([]byte(src), c.ptr, c.value)
		if err != nil || string(got) != c.want {
			t.Errorf("SetValue(%s): %v\n%s\nwant\n%s", c.ptr, err, got, c.want)
		}
		// Exactly that value changed, as the review compares.
		d := Compare("x.json", []byte(src), got)
		if len(d.Fields) != 1 || d.Fields[0].Pointer != c.ptr {
			t.Errorf("SetValue(%s) changed %s", c.ptr, fieldsString(d.Fields))
		}
	}
	for _, bad := range []string{"/nope/x", "/list/7", "/b/x", "b"} {
		if _, err := SetValue([]byte(src), bad, ptrTo(`1`)); err == nil {
			t.Errorf("SetValue(%s) worked", bad)
		}
	}
	if _, err := SetValue([]byte(src), "/b", ptrTo(`{`)); err == nil {
		t.Error("SetValue took a value that is not JSON")
	}
}

func ptrTo(s string) *string { return &s }
