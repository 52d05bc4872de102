package roman

import "testing"

func TestAll(t *testing.T) {
	for n := 1; n <= 3999; n++ {
		back, err := FromRoman(ToRoman(n))
		if err != nil || back != n {
			t.Fatalf("%d failed", n)
		}
	}
	if _, err := FromRoman(""); err == nil {
		t.Fatal("empty accepted")
	}
}
