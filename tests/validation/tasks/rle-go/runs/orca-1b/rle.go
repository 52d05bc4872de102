package rle

import (
	"errors"
	"strconv"
	"strings"
)

var errFormat = errors.New("rle: malformed input")

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// Encode returns each run as the letter followed by how many times it repeats.
func Encode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		b.WriteByte(s[i])
		b.WriteString(strconv.Itoa(j - i))
		i = j
	}
	return b.String()
}

// Decode reverses Encode.
func Decode(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if !isLetter(s[i]) {
			return "", errFormat
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(s[i+1 : j])
		if err != nil || n == 0 {
			return "", errFormat
		}
		b.WriteString(strings.Repeat(s[i:i+1], n))
		i = j
	}
	return b.String(), nil
}
