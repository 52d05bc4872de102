// Package roman converts between integers and Roman numerals.
package roman

import (
	"errors"
	"fmt"
)

var table = []struct {
	value  int
	symbol string
}{
	{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"},
	{100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"},
	{10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"},
}

// ToRoman returns the Roman numeral for n. Numbers outside 1..3999 have no
// standard numeral; for them the result is the empty string.
func ToRoman(n int) string {
	if n < 1 || n > 3999 {
		return ""
	}
	out := make([]byte, 0, 16)
	for _, entry := range table {
		for n >= entry.value {
			out = append(out, entry.symbol...)
			n -= entry.value
		}
	}
	return string(out)
}

var letterValue = map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

// FromRoman parses a numeral made of the letters I, V, X, L, C, D and M.
func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, errors.New("roman: empty numeral")
	}
	total := 0
	for i := 0; i < len(s); i++ {
		v, ok := letterValue[s[i]]
		if !ok {
			return 0, fmt.Errorf("roman: invalid character %q at position %d", s[i], i)
		}
		if i+1 < len(s) && letterValue[s[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	return total, nil
}
