package roman

// Held-out grader for the roman-go task. The harness deletes the model's own
// *_test.go files, copies this file into the graded folder and runs go test.
// The model never sees it.

import "testing"

type numeral struct {
	n int
	s string
}

var knownNumerals = []numeral{
	{2, "II"}, {4, "IV"}, {6, "VI"}, {9, "IX"}, {19, "XIX"},
	{44, "XLIV"}, {99, "XCIX"}, {400, "CD"}, {444, "CDXLIV"}, {949, "CMXLIX"},
	{1776, "MDCCLXXVI"}, {1990, "MCMXC"}, {2419, "MMCDXIX"},
	{3888, "MMMDCCCLXXXVIII"}, {3999, "MMMCMXCIX"},
}

func TestHeldOutToRoman(t *testing.T) {
	for _, c := range knownNumerals {
		if got := ToRoman(c.n); got != c.s {
			t.Errorf("ToRoman(%d) returned %q, expected %q", c.n, got, c.s)
		}
	}
}

func TestHeldOutFromRoman(t *testing.T) {
	for _, c := range knownNumerals {
		got, err := FromRoman(c.s)
		switch {
		case err != nil:
			t.Errorf("FromRoman(%q) failed: %v", c.s, err)
		case got != c.n:
			t.Errorf("FromRoman(%q) returned %d, expected %d", c.s, got, c.n)
		}
	}
}

func TestHeldOutRejectsJunk(t *testing.T) {
	junk := []struct{ name, input string }{
		{"empty", ""},
		{"letters", "ABC"},
		{"trailing-Q", "MMQ"},
		{"digits", "12"},
		{"space", "X V"},
	}
	for _, j := range junk {
		j := j
		t.Run(j.name, func(t *testing.T) {
			if n, err := FromRoman(j.input); err == nil {
				t.Errorf("FromRoman(%q) = %d and no error: junk must be refused", j.input, n)
			}
		})
	}
}

func TestHeldOutRoundTrip(t *testing.T) {
	for n := 1; n <= 3999; n++ {
		s := ToRoman(n)
		back, err := FromRoman(s)
		if err != nil {
			t.Fatalf("round trip broke at %d: FromRoman(%q) failed: %v", n, s, err)
		}
		if back != n {
			t.Fatalf("round trip broke at %d: ToRoman gave %q, FromRoman gave back %d", n, s, back)
		}
	}
}

// ToRoman has no error result, so a number without a numeral comes back empty.
func TestHeldOutZero(t *testing.T) {
	if got := ToRoman(0); got != "" {
		t.Errorf("ToRoman(0) = %q, expected the empty string", got)
	}
}
