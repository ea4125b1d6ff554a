package httpx

import (
	"net/http/httptest"
	"testing"
)

// A list answer is never null: a nil slice or map is written as [] or {}.
func TestJSONWritesNoNullList(t *testing.T) {
	for _, c := range []struct {
		v    any
		want string
	}{
		{[]string(nil), "[]\n"},
		{map[string]int(nil), "{}\n"},
		{[]string{"a"}, "[\"a\"]\n"},
		{struct {
			L []int `json:"l"`
		}{}, "{\"l\":null}\n"}, // a nested nil list is the service's to avoid
	} {
		w := httptest.NewRecorder()
		if err := OK(w, c.v); err != nil || w.Body.String() != c.want {
			t.Errorf("OK(%#v) wrote %q, want %q", c.v, w.Body.String(), c.want)
		}
	}
}
