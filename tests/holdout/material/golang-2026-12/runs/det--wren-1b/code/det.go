package matrix

import "errors"

var ErrNotSquare = errors.New("matrix is not square")

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
	a := make([][]float64, n)
	for i := range m {
		a[i] = append([]float64{}, m[i]...)
	}
	result := 1.0
	swaps := 0
	for i := 0; i < n; i++ {
		p := i
		for p < n && a[p][i] == 0 {
			p++
		}
		if p == n {
			return 0, nil
		}
		if p != i {
			a[i], a[p] = a[p], a[i]
			result = -result
		}
		for r := i + 1; r < n; r++ {
			f := a[r][i] / a[i][i]
			for c := i; c < n; c++ {
				a[r][c] -= f * a[i][c]
			}
		}
		result *= a[i][i]
	}
	return result, nil
}
