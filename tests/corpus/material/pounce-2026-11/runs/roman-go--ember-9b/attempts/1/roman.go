package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

var values = []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
var numerals = []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}

// ToRoman converts 1..3999 to a Roman numeral.
func ToRoman(n int) string {
	s := ""
	for i, v := range values {
		for n >= v {
			s += numerals[i]
			n -= v
		}
	}
	return s
}

func digitValue(c rune) int {
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
	return 0
}

// FromRoman parses a Roman numeral.
func FromRoman(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty numeral")
	}
	total, prev := 0, 0
	for _, c := range s {
		v := digitValue(c)
		if v == 0 {
			return 0, fmt.Errorf("invalid numeral character %q", c)
		}
		if prev < v {
			total -= 2 * prev
		}
		total += v
		prev = v
	}
	return total, nil
}

func main() {
	for _, arg := range os.Args[1:] {
		if n, err := strconv.Atoi(arg); err == nil {
			fmt.Println(arg, "=", ToRoman(n))
			continue
		}
		n, err := FromRoman(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(arg, "=", n)
	}
}
