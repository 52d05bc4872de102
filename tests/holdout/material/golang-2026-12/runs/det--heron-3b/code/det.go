package matrix

import (
	"errors"
	"math"
)

// ErrNotSquare is returned for empty or non-square input.
var ErrNotSquare = errors.New("matrix is empty or not square")

// Det computes the determinant by Gaussian elimination with partial pivoting.
func Det(m [][]float64) (float64, error) {
	n := len(m)
	if n == 0 {
		return 0, ErrNotSquare
	}
	a := make([][]float64, n)
	for i, row := range m {
		if len(row) != n {
			return 0, ErrNotSquare
		}
		a[i] = append([]float64(nil), row...)
	}
	det := 1.0
	for col := 0; col < n; col++ {
		pivot := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[pivot][col]) {
				pivot = r
			}
		}
		if a[pivot][col] == 0 {
			return 0, nil
		}
		if pivot != col {
			a[pivot], a[col] = a[col], a[pivot]
			det = -det
		}
		det *= a[col][col]
		for r := col + 1; r < n; r++ {
			f := a[r][col] / a[col][col]
			for k := col; k < n; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	return det, nil
}
