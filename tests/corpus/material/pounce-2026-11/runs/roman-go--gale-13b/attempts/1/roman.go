// Package roman converts integers in 1..3999 to Roman numerals and back.
package roman

import (
	"errors"
	"fmt"
	"strings"
)

// ErrEmpty is returned by FromRoman for an empty string.
var ErrEmpty = errors.New("roman: empty numeral")

var (
	ones      = []string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"}
	tens      = []string{"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"}
	hundreds  = []string{"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"}
	thousands = []string{"", "M", "MM", "MMM"}
)

// ToRoman returns the Roman numeral for n. It panics when n is outside
// 1..3999, which the function is not defined for.
func ToRoman(n int) string {
	if n < 1 || n > 3999 {
		panic(fmt.Sprintf("roman.ToRoman: %d is outside 1..3999", n))
	}
	return thousands[n/1000] + hundreds[n/100%10] + tens[n/10%10] + ones[n%10]
}

// FromRoman returns the number a Roman numeral stands for.
func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, ErrEmpty
	}
	if i := strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("IVXLCDM", r) }); i >= 0 {
		return 0, fmt.Errorf("roman: %q is not a numeral letter (position %d)", s[i], i)
	}
	value := func(b byte) int {
		return map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}[b]
	}
	total := 0
	for i := 0; i < len(s); i++ {
		v := value(s[i])
		if i+1 < len(s) && v < value(s[i+1]) {
			v = -v
		}
		total += v
	}
	return total, nil
}
