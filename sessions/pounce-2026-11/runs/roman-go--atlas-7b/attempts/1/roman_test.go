package roman

import "testing"

func TestToRoman(t *testing.T) {
	cases := map[int]string{1: "I", 4: "IV", 9: "IX", 14: "XIV", 40: "XL", 90: "XC", 400: "CD", 1987: "MCMLXXXVII", 3999: "MMMCMXCIX"}
	for n, want := range cases {
		if got := ToRoman(n); got != want {
			t.Errorf("ToRoman(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFromRoman(t *testing.T) {
	for _, s := range []string{"I", "IV", "MCMLXXXVII", "MMMCMXCIX"} {
		n, err := FromRoman(s)
		if err != nil {
			t.Fatalf("FromRoman(%q): %v", s, err)
		}
		if ToRoman(n) != s {
			t.Errorf("FromRoman(%q) = %d", s, n)
		}
	}
}

func TestFromRomanErrors(t *testing.T) {
	for _, s := range []string{"", "ABC", "XIQ"} {
		if _, err := FromRoman(s); err == nil {
			t.Errorf("FromRoman(%q) should fail", s)
		}
	}
}
