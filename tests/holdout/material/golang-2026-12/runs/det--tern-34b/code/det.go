// Package matrix computes determinants of small square matrices.
package matrix

import "errors"

// ErrNotSquare is returned when the matrix is empty or not square.
var ErrNotSquare = errors.New("matrix: empty or not square")

// Det returns the determinant of m (cofactor expansion; m is not modified).
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
	cols := make([]int, n)
	for i := range cols {
		cols[i] = i
	}
	return expand(m, 0, cols), nil
}

// expand computes the determinant of the submatrix formed by rows row.. and
// the given columns.
func expand(m [][]float64, row int, cols []int) float64 {
	if len(cols) == 1 {
		return m[row][cols[0]]
	}
	total := 0.0
	sign := 1.0
	rest := make([]int, 0, len(cols)-1)
	for i, c := range cols {
		rest = rest[:0]
		rest = append(rest, cols[:i]...)
		rest = append(rest, cols[i+1:]...)
		sub := append([]int(nil), rest...)
		total += sign * m[row][c] * expand(m, row+1, sub)
		sign = -sign
	}
	return total
}
