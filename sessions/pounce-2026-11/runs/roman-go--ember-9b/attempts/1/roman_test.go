package main

import "testing"

func TestConversions(t *testing.T) {
	for n, s := range map[int]string{3: "III", 49: "XLIX", 1987: "MCMLXXXVII"} {
		if ToRoman(n) != s {
			t.Errorf("ToRoman(%d) = %q", n, ToRoman(n))
		}
		if got, _ := FromRoman(s); got != n {
			t.Errorf("FromRoman(%q) = %d", s, got)
		}
	}
	if _, err := FromRoman("Z"); err == nil {
		t.Error("Z accepted")
	}
}
