package matrix

import "errors"

var ErrNonSquare = errors.New("matrix must be square and non-empty")

func Det(m [][]float64) (float64, error) {
	n := len(m)
	if n == 0 {
		return 0, ErrNonSquare
	}
	for _, r := range m {
		if len(r) != n {
			return 0, ErrNonSquare
		}
	}
	return laplace(m), nil
}

func laplace(m [][]float64) float64 {
	n := len(m)
	if n == 1 {
		return m[0][0]
	}
	if n == 2 {
		return m[0][0]*m[1][1] - m[0][1]*m[1][0]
	}
	total := 0.0
	sign := 1.0
	for c := 0; c < n; c++ {
		minor := make([][]float64, 0, n-1)
		for r := 1; r < n; r++ {
			row := make([]float64, 0, n-1)
			row = append(row, m[r][:c]...)
			row = append(row, m[r][c+1:]...)
			minor = append(minor, row)
		}
		total += sign * m[0][c] * laplace(minor)
		sign = -sign
	}
	return total
}
