// Package datediff computes signed day differences between ISO dates.
package datediff

import (
	"fmt"
	"time"
)

func parse(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid date %q: %v", s, err)
	}
	return t, nil
}

// DaysBetween returns the number of days from `from` to `to` (negative when
// `to` is earlier).
func DaysBetween(from, to string) (int, error) {
	a, err := parse(from)
	if err != nil {
		return 0, err
	}
	b, err := parse(to)
	if err != nil {
		return 0, err
	}
	return int((b.Unix() - a.Unix()) / 86400), nil
}
