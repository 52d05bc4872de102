package roman

import (
	"fmt"
	"strings"
)

type step struct {
	value  int
	symbol string
}

var steps = []step{{1000, "M"}, {500, "D"}, {100, "C"}, {50, "L"}, {10, "X"}, {5, "V"}, {1, "I"}}

// ToRoman writes n using each symbol as often as it fits.
func ToRoman(n int) string {
	var b strings.Builder
	for _, st := range steps {
		b.WriteString(strings.Repeat(st.symbol, n/st.value))
		n %= st.value
	}
	return b.String()
}

func valueOf(r byte) (int, bool) {
	for _, st := range steps {
		if st.symbol[0] == r {
			return st.value, true
		}
	}
	return 0, false
}

// FromRoman reads a numeral right to left: a value smaller than the one to its
// right is subtracted, anything else is added.
func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("FromRoman: empty input")
	}
	total, prev := 0, 0
	for i := len(s) - 1; i >= 0; i-- {
		v, ok := valueOf(s[i])
		if !ok {
			return 0, fmt.Errorf("FromRoman: %q is not a Roman digit", s[i])
		}
		if v < prev {
			total -= v
		} else {
			total += v
			prev = v
		}
	}
	return total, nil
}
