package matrix

import "errors"

// ErrNotSquare is returned when the input is not a square matrix.
var ErrNotSquare = errors.New("not a square matrix")

// Det returns the determinant of m by cofactor expansion along the first row.
func Det(m [][]float64) (float64, error) {
	n := len(m)
	if n == 0 {
		return 0, ErrNotSquare
	}
	for _, row := range m {
		if len(row) != n {
			return 0, ErrNotSquare
		}
	}
	return cofactor(m), nil
}

func cofactor(m [][]float64) float64 {
	n := len(m)
	if n == 1 {
		return m[0][0]
	}
	sum := 0.0
	for col := 0; col < n; col++ {
		sub := [][]float64{}
		for r := 1; r < n; r++ {
			row := []float64{}
			for c := 0; c < n; c++ {
				if c != col {
					row = append(row, m[r][c])
				}
			}
			sub = append(sub, row)
		}
		sum += m[0][col] * cofactor(sub)
	}
	return sum
}
