package datediff

import (
	"fmt"
	"time"
)

func DaysBetween(from, to string) (int, error) {
	t1, err := time.Parse("2006-01-02", from)
	if err != nil {
		return 0, fmt.Errorf("invalid date: %w", err)
	}
	t2, err := time.Parse("2006-01-02", to)
	if err != nil {
		return 0, fmt.Errorf("invalid date: %w", err)
	}
	diff := t2.Sub(t1)
	if diff < 0 {
		diff = -diff
	}
	return int(diff.Hours() / 24), nil
}
