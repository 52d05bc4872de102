package datediff

import (
	"fmt"
	"time"
)

// DaysBetween reports how many days lie between two YYYY-MM-DD dates.
func DaysBetween(from, to string) (int, error) {
	start, err := time.Parse("2006-01-02", from)
	if err != nil {
		return 0, fmt.Errorf("invalid date %q", from)
	}
	end, err := time.Parse("2006-01-02", to)
	if err != nil {
		return 0, fmt.Errorf("invalid date %q", to)
	}
	const day = 24 * 60 * 60
	return int((end.Unix() - start.Unix()) / day), nil
}
