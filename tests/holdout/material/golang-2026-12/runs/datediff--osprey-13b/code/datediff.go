package datediff

import (
	"errors"
	"strings"
	"time"
)

var errInvalid = errors.New("invalid date")

func parseDate(s string) (time.Time, error) {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, errInvalid
	}
	return t, nil
}

// DaysBetween returns the signed number of days from `from` to `to`.
func DaysBetween(from, to string) (int, error) {
	a, err := parseDate(from)
	if err != nil {
		return 0, err
	}
	b, err := parseDate(to)
	if err != nil {
		return 0, err
	}
	return int(b.Unix()/86400 - a.Unix()/86400), nil
}
