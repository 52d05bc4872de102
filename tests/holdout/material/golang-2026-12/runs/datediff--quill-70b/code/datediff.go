// Package datediff counts days between calendar dates.
package datediff

import (
	"fmt"
	"strconv"
)

var monthDays = [12]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

func isLeap(y int) bool { return y%4 == 0 }

func parse(s string) (y, m, d int, err error) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, fmt.Errorf("invalid date %q", s)
	}
	y, e1 := strconv.Atoi(s[0:4])
	m, e2 := strconv.Atoi(s[5:7])
	d, e3 := strconv.Atoi(s[8:10])
	if e1 != nil || e2 != nil || e3 != nil || m < 1 || m > 12 || d < 1 {
		return 0, 0, 0, fmt.Errorf("invalid date %q", s)
	}
	limit := monthDays[m-1]
	if m == 2 && isLeap(y) {
		limit = 29
	}
	if d > limit {
		return 0, 0, 0, fmt.Errorf("invalid date %q", s)
	}
	return y, m, d, nil
}

// ordinal counts days since 1600-01-01.
func ordinal(y, m, d int) int {
	n := 0
	for yy := 1600; yy < y; yy++ {
		n += 365
		if isLeap(yy) {
			n++
		}
	}
	for mm := 1; mm < m; mm++ {
		n += monthDays[mm-1]
		if mm == 2 && isLeap(y) {
			n++
		}
	}
	return n + d - 1
}

// DaysBetween returns to - from in days.
func DaysBetween(from, to string) (int, error) {
	y1, m1, d1, err := parse(from)
	if err != nil {
		return 0, err
	}
	y2, m2, d2, err := parse(to)
	if err != nil {
		return 0, err
	}
	return ordinal(y2, m2, d2) - ordinal(y1, m1, d1), nil
}
