package rle

import (
	"strings"
	"testing"
)

type pair struct{ in, want string }

func TestEncodeExamples(t *testing.T) {
	for _, c := range []pair{{"", ""}, {"a", "1a"}, {"aaabcc", "3a1b2c"}, {"abAB", "1a1b1A1B"}, {"zzZZzz", "2z2Z2z"}} {
		if got := Encode(c.in); got != c.want {
			t.Errorf("Encode(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEncodeLongRuns(t *testing.T) {
	cases := []pair{
		{strings.Repeat("a", 12), "12a"},
		{strings.Repeat("b", 10) + "c", "10b1c"},
		{"x" + strings.Repeat("y", 105) + "x", "1x105y1x"},
	}
	for _, c := range cases {
		if got := Encode(c.in); got != c.want {
			t.Errorf("Encode(%d letters) = %q, want %q", len(c.in), got, c.want)
		}
	}
}

func TestDecodeExamples(t *testing.T) {
	for _, c := range []pair{{"", ""}, {"1a", "a"}, {"3a1b2c", "aaabcc"}, {"12q", strings.Repeat("q", 12)}} {
		got, err := Decode(c.in)
		if err != nil || got != c.want {
			t.Errorf("Decode(%q) = %q, %v; want %q, nil", c.in, got, err, c.want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	for _, in := range []string{"hello", "mississippi", "AAAaaaAAA", strings.Repeat("k", 31) + "j"} {
		enc := Encode(in)
		got, err := Decode(enc)
		if err != nil || got != in {
			t.Errorf("Decode(Encode(%q)) = %q, %v", in, got, err)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, in := range []string{"a", "3", "3a4", "0a", "2a-1b", "2a 1b"} {
		if got, err := Decode(in); err == nil {
			t.Errorf("Decode(%q) = %q, nil; want an error", in, got)
		}
	}
}
