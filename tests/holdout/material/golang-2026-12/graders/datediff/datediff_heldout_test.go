package datediff

import (
	"math/rand"
	"strings"
	"testing"
)

func TestKnownDifferences(t *testing.T) {
	cases := []struct {
		from, to string
		want     int
	}{
		{"2024-02-28", "2024-03-01", 2},
		{"2000-01-01", "2000-03-01", 60},
		{"1900-01-01", "1900-03-01", 59},
		{"2023-12-31", "2024-01-01", 1},
		{"1999-06-15", "1999-06-15", 0},
		{"1600-01-01", "2400-12-31", 292559},
		{"1970-01-01", "2038-01-19", 24855},
	}
	for _, c := range cases {
		got, err := DaysBetween(c.from, c.to)
		if err != nil {
			t.Errorf("DaysBetween(%q, %q) returned error %v", c.from, c.to, err)
			continue
		}
		if got != c.want {
			t.Errorf("DaysBetween(%q, %q) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
}

func TestEarlierTargetIsNegative(t *testing.T) {
	got, err := DaysBetween("2024-03-01", "2023-03-01")
	if err != nil || got != -366 {
		t.Fatalf("DaysBetween(2024-03-01, 2023-03-01) = %d, %v; want -366, nil", got, err)
	}
}

func TestSwappingArgumentsNegates(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	for i := 0; i < 200; i++ {
		a := randomDate(rng)
		b := randomDate(rng)
		ab, err1 := DaysBetween(a, b)
		ba, err2 := DaysBetween(b, a)
		if err1 != nil || err2 != nil {
			t.Fatalf("unexpected error for %s / %s", a, b)
		}
		if ab != -ba {
			t.Fatalf("DaysBetween(%s, %s) = %d but DaysBetween(%s, %s) = %d", a, b, ab, b, a, ba)
		}
	}
}

func TestInvalidDatesRejected(t *testing.T) {
	for _, bad := range []string{"2023-02-29", "2023-04-31", "1900-02-29", "2023-13-01", "2023-1-05", "20230105", ""} {
		if _, err := DaysBetween(bad, "2000-01-01"); err == nil {
			t.Errorf("DaysBetween(%q, ...) returned no error", bad)
		}
	}
}

func TestErrorMentionsInvalidDate(t *testing.T) {
	_, err := DaysBetween("2023-02-30", "2023-03-01")
	if err == nil {
		t.Fatal("expected an error for 2023-02-30")
	}
	if !strings.Contains(err.Error(), "invalid date") {
		t.Errorf("error text does not say what went wrong")
	}
}

func randomDate(rng *rand.Rand) string {
	y := 1600 + rng.Intn(801)
	m := 1 + rng.Intn(12)
	d := 1 + rng.Intn(28)
	return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
}

func pad(v, width int) string {
	s := ""
	for i := 0; i < width; i++ {
		s = string(rune('0'+v%10)) + s
		v /= 10
	}
	return s
}
