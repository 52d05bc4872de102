package rle

import (
	"fmt"
	"strings"
	"unicode"
)

func Encode(s string) string {
	out := ""
	i := 0
	for i < len(s) {
		ch := s[i]
		n := 0
		for i < len(s) && s[i] == ch && n < 9 {
			n++
			i++
		}
		out += fmt.Sprintf("%d%c", n, ch)
	}
	return out
}

func Decode(s string) (string, error) {
	var sb strings.Builder
	num := ""
	for _, r := range s {
		if unicode.IsDigit(r) {
			num += string(r)
			continue
		}
		if !((r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')) {
			return "", fmt.Errorf("bad character %q", r)
		}
		if num == "" {
			return "", fmt.Errorf("letter %q has no count", r)
		}
		var n int
		fmt.Sscanf(num, "%d", &n)
		if n == 0 {
			return "", fmt.Errorf("zero count")
		}
		sb.WriteString(strings.Repeat(string(r), n))
		num = ""
	}
	if num != "" {
		return "", fmt.Errorf("count %s has no letter", num)
	}
	return sb.String(), nil
}
