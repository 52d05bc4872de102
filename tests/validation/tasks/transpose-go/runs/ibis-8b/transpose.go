package matrix

// Transpose returns the transpose of m.
func Transpose(m [][]int) [][]int {
	if len(m) == 0 {
		return nil
	}
	rows, cols := len(m), len(m[0])
	out := make([][]int, cols)
	for j := 0; j < cols; j++ {
		out[j] = make([]int, rows)
		for i := 0; i < rows; i++ {
			out[j][i] = m[i][j]
		}
	}
	return out
}
