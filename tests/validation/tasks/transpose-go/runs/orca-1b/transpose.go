package matrix

// Transpose returns the transpose of a rectangular matrix; ragged input yields nil.
func Transpose(m [][]float64) [][]float64 {
	if len(m) == 0 {
		return nil
	}
	w := len(m[0])
	for _, r := range m {
		if len(r) != w {
			return nil
		}
	}
	t := make([][]float64, w)
	for j := 0; j < w; j++ {
		t[j] = make([]float64, len(m))
		for i := range m {
			t[j][i] = m[i][j]
		}
	}
	return t
}
