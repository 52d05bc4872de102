package datediff

import "time"

const layout = "2006-01-02"

// DaysBetween returns the number of days from `from` to `to`.
func DaysBetween(from, to string) (int, error) {
	a, err := time.Parse(layout, from)
	if err != nil {
		return 0, err
	}
	b, err := time.Parse(layout, to)
	if err != nil {
		return 0, err
	}
	return int((b.Unix() - a.Unix()) / 86400), nil
}
