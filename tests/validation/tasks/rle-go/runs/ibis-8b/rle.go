package rle

import (
	"errors"
	"strconv"
	"strings"
)

// Encode writes each run of equal characters as its length followed by the character.
func Encode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		b.WriteString(strconv.Itoa(j - i))
		b.WriteByte(s[i])
		i = j
	}
	return b.String()
}

// Decode reverses Encode.
func Decode(s string) (string, error) {
	var b strings.Builder
	count := 0
	haveCount := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			count = count*10 + int(c-'0')
			haveCount = true
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			if !haveCount || count == 0 {
				return "", errors.New("rle: letter without a positive count")
			}
			b.WriteString(strings.Repeat(string(c), count))
			count, haveCount = 0, false
		default:
			return "", errors.New("rle: unexpected character")
		}
	}
	if haveCount {
		return "", errors.New("rle: count without a letter")
	}
	return b.String(), nil
}
