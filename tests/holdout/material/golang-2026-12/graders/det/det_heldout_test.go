package matrix

import (
	"errors"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestIdentity(t *testing.T) {
	m := [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}
	if got, err := Det(m); err != nil || !near(got, 1) {
		t.Fatalf("Det(I4) = %v, %v", got, err)
	}
}

func TestKnownThreeByThree(t *testing.T) {
	m := [][]float64{{2, -3, 1}, {2, 0, -1}, {1, 4, 5}}
	got, err := Det(m)
	if err != nil || !near(got, 49) {
		t.Fatalf("got %v, %v; want 49", got, err)
	}
}

func TestZeroOnDiagonal(t *testing.T) {
	for _, c := range []struct {
		m    [][]float64
		want float64
	}{
		{[][]float64{{0, 1}, {1, 0}}, -1},
		{[][]float64{{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}, -1},
		{[][]float64{{0, 2, 1}, {3, 0, 0}, {1, 1, 0}}, 3},
	} {
		if got, err := Det(c.m); err != nil || !near(got, c.want) {
			t.Errorf("Det(%v) = %v, %v; want %v", c.m, got, err, c.want)
		}
	}
}

func TestSingular(t *testing.T) {
	m := [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}
	if got, err := Det(m); err != nil || math.Abs(got) > 1e-9 {
		t.Fatalf("Det of a singular matrix = %v, %v", got, err)
	}
}

func TestIntegerMatrix(t *testing.T) {
	m := [][]float64{{3, -5, -2}, {-5, 7, 3}, {-9, -7, -4}}
	got, err := Det(m)
	if err != nil || got != 18 {
		t.Fatalf("Det = %v, want 18", got)
	}
}

func TestInputUnchanged(t *testing.T) {
	m := [][]float64{{4, 3}, {6, 3}}
	if _, err := Det(m); err != nil {
		t.Fatal(err)
	}
	if m[0][0] != 4 || m[0][1] != 3 || m[1][0] != 6 || m[1][1] != 3 {
		t.Fatalf("input modified: %v", m)
	}
}

func TestNotSquare(t *testing.T) {
	for _, m := range [][][]float64{{}, {{1, 2}}, {{1, 2}, {3}}} {
		if _, err := Det(m); !errors.Is(err, ErrNotSquare) {
			t.Errorf("Det(%v): error %v, want ErrNotSquare", m, err)
		}
	}
}
