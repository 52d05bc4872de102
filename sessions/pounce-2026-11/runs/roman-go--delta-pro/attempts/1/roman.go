package roman

import (
	"errors"
	"fmt"
)

var pairs = []struct {
	n   int
	sym string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"},
	{50, "L"}, {40, "XL"}, {10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

var ErrEmpty = errors.New("roman: empty string")

// ToRoman converts 1..3999 to a numeral.
func ToRoman(n int) string {
	var sb strings.Builder
	for _, p := range pairs {
		for n >= p.n {
			sb.WriteString(p.sym)
			n -= p.n
		}
	}
	return sb.String()
}

// FromRoman converts a numeral back, longest symbol first.
func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, ErrEmpty
	}
	total, i := 0, 0
	for i < len(s) {
		matched := false
		for _, p := range pairs {
			if strings.HasPrefix(s[i:], p.sym) {
				total += p.n
				i += len(p.sym)
				matched = true
				break
			}
		}
		if !matched {
			return 0, errors.New("roman: bad character in " + s)
		}
	}
	return total, nil
}
