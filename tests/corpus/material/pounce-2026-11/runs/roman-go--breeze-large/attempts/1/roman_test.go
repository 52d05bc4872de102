package roman

import "testing"

func TestRoundTrip(t *testing.T) {
	for n := 1; n < 4000; n++ {
		got, err := FromRoman(ToRoman(n))
		if err != nil || got != n {
			t.Fatalf("%d: got %d, %v", n, got, err)
		}
	}
}

func TestEmpty(t *testing.T) {
	if _, err := FromRoman(""); err == nil {
		t.Fatal("empty string accepted")
	}
}
