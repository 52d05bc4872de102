// Package matrix holds small matrix helpers.
package matrix

// Transpose returns a new matrix whose [i][j] element is m[j][i].
// It returns nil when m has no rows or its rows differ in length.
func Transpose(m [][]int) [][]int {
	if len(m) == 0 {
		return nil
	}
	width := len(m[0])
	for _, row := range m {
		if len(row) != width {
			return nil
		}
	}
	result := make([][]int, width)
	for c := range result {
		result[c] = make([]int, len(m))
		for r := range m {
			result[c][r] = m[r][c]
		}
	}
	return result
}
