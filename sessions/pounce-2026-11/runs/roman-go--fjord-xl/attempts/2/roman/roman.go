package roman

import "fmt"

var order = []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}

var glyph = map[int]string{
	1000: "M", 900: "CM", 500: "D", 400: "CD", 100: "C", 90: "XC",
	50: "L", 40: "XL", 10: "X", 9: "IX", 5: "V", 4: "IV", 1: "I",
}

func ToRoman(n int) string {
	if n <= 0 || n >= 4000 {
		return ""
	}
	s := ""
	for _, v := range order {
		for n >= v {
			s += glyph[v]
			n -= v
		}
	}
	return s
}

func letter(c byte) int {
	switch c {
	case 'I':
		return 1
	case 'V':
		return 5
	case 'X':
		return 10
	case 'L':
		return 50
	case 'C':
		return 100
	case 'D':
		return 500
	case 'M':
		return 1000
	}
	return -1
}

func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("roman: empty input")
	}
	sum := 0
	for i := 0; i < len(s); i++ {
		v := letter(s[i])
		if v < 0 {
			return 0, fmt.Errorf("roman: unexpected %q", s[i])
		}
		if i+1 < len(s) && letter(s[i+1]) > v {
			sum -= v
		} else {
			sum += v
		}
	}
	return sum, nil
}
