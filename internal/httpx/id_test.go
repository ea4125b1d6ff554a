package httpx

import "testing"

func TestParseIDTakesDigitsOnly(t *testing.T) {
	for s, want := range map[string]int64{"1": 1, "42": 42, "9223372036854775807": 9223372036854775807} {
		if got, ok := ParseID(s); !ok || got != want {
			t.Errorf("ParseID(%q) = %d, %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "0", "+1", "-1", " 1", "1 ", "1e0", "0x1", "١", "9223372036854775808", "01a", "1.0"} {
		if got, ok := ParseID(s); ok {
			t.Errorf("ParseID(%q) = %d, want refused", s, got)
		}
	}
}
