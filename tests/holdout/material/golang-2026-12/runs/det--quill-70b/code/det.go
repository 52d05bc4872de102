// Package matrix provides a determinant.
package matrix

import "errors"

// ErrNotSquare reports a matrix that is empty or not square.
var ErrNotSquare = errors.New("matrix: not square")

// Det returns the determinant of m using LU decomposition (Doolittle).
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
	lu := make([][]float64, n)
	for i := range m {
		lu[i] = make([]float64, n)
		copy(lu[i], m[i])
	}
	det := 1.0
	for k := 0; k < n; k++ {
		det *= lu[k][k]
		for i := k + 1; i < n; i++ {
			factor := lu[i][k] / lu[k][k]
			for j := k; j < n; j++ {
				lu[i][j] -= factor * lu[k][j]
			}
		}
	}
	return det, nil
}
