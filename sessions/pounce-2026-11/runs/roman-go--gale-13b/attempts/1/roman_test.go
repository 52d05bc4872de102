package roman

import (
	"errors"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for n := 1; n <= 3999; n++ {
		s := ToRoman(n)
		got, err := FromRoman(s)
		if err != nil || got != n {
			t.Fatalf("%d -> %q -> %d (%v)", n, s, got, err)
		}
	}
}

func TestSamples(t *testing.T) {
	if ToRoman(1994) != "MCMXCIV" || ToRoman(4) != "IV" {
		t.Fatal("wrong numeral")
	}
}

func TestErrors(t *testing.T) {
	if _, err := FromRoman(""); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty: %v", err)
	}
	if _, err := FromRoman("MXA"); err == nil {
		t.Error("MXA accepted")
	}
}

func TestPanicsOutsideRange(t *testing.T) {
	for _, n := range []int{0, -5, 4000} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ToRoman(%d) did not panic", n)
				}
			}()
			ToRoman(n)
		}()
	}
}
