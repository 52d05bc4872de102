package matrix

// Transpose returns the transpose of m, or nil when the rows of m differ in length.
func Transpose(m [][]int) [][]int {
	if len(m) == 0 {
		return nil
	}
	cols := len(m[0])
	for _, row := range m[1:] {
		if len(row) != cols {
			return nil
		}
	}
	out := make([][]int, cols)
	for j := range out {
		col := make([]int, len(m))
		for i := range m {
			col[i] = m[i][j]
		}
		out[j] = col
	}
	return out
}
