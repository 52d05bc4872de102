package roman

import "testing"

func TestKnown(t *testing.T) {
	for n, s := range map[int]string{1: "I", 4: "IV", 14: "XIV", 1666: "MDCLXVI", 3999: "MMMCMXCIX"} {
		if got := ToRoman(n); got != s {
			t.Errorf("ToRoman(%d) = %q, want %q", n, got, s)
		}
		if got, err := FromRoman(s); err != nil || got != n {
			t.Errorf("FromRoman(%q) = %d, %v", s, got, err)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, s := range []string{"", "XQ", "7"} {
		if _, err := FromRoman(s); err == nil {
			t.Errorf("FromRoman(%q) accepted", s)
		}
	}
}
