package roman

import "errors"

var symbols = [...]string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
var amounts = [...]int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}

// ToRoman converts n (1..3999) to a Roman numeral.
func ToRoman(n int) string {
	result := ""
	for i, amount := range amounts {
		for n >= amount {
			result += symbols[i]
			n -= amount
		}
	}
	return result
}

var runeValue = map[rune]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

// FromRoman converts a Roman numeral back to an integer.
//
// [TODO] reject characters outside IVXLCDM; unknown letters count as zero for now.
func FromRoman(s string) (int, error) {
	if len(s) == 0 {
		return 0, errors.New("empty numeral")
	}
	runes := []rune(s)
	total := 0
	for i, r := range runes {
		v := runeValue[r]
		if i+1 < len(runes) && runeValue[runes[i+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	return total, nil
}
