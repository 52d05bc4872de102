package roman

import "testing"

func TestToRoman(t *testing.T) {
	if got := ToRoman(4); got != "IIII" {
		t.Errorf("ToRoman(4) = %q", got)
	}
	if got := ToRoman(1987); got != "MDCCCCLXXXVII" {
		t.Errorf("ToRoman(1987) = %q", got)
	}
}

func TestFromRoman(t *testing.T) {
	for s, want := range map[string]int{"IV": 4, "IIII": 4, "MCMXC": 1990} {
		if got, err := FromRoman(s); err != nil || got != want {
			t.Errorf("FromRoman(%q) = %d, %v", s, got, err)
		}
	}
}
