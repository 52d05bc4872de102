// Package rle implements run-length encoding of letter strings.
package rle

import (
	"strconv"
	"strings"
)

// Encode run-length encodes s.
func Encode(s string) string {
	if s == "" {
		return ""
	}
	var sb strings.Builder
	run := 1
	for i := 1; i <= len(s); i++ {
		if i < len(s) && s[i] == s[i-1] {
			run++
			continue
		}
		sb.WriteString(strconv.Itoa(run))
		sb.WriteByte(s[i-1])
		run = 1
	}
	return sb.String()
}

// Decode expands an encoded string. Digits accumulate into a count that
// applies to the next letter.
func Decode(s string) (string, error) {
	var sb strings.Builder
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int(s[i]-'0')
			continue
		}
		if n == 0 {
			n = 1
		}
		sb.WriteString(strings.Repeat(string(s[i]), n))
		n = 0
	}
	return sb.String(), nil
}
