package matrix

import (
	"reflect"
	"testing"
)

func TestSquare(t *testing.T) {
	got := Transpose([][]int{{1, 2}, {3, 4}})
	want := [][]int{{1, 3}, {2, 4}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Transpose(2x2) = %v, want %v", got, want)
	}
}

func TestRectangular(t *testing.T) {
	got := Transpose([][]int{{1, 2, 3}, {4, 5, 6}})
	want := [][]int{{1, 4}, {2, 5}, {3, 6}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Transpose(2x3) = %v, want %v", got, want)
	}
}

func TestSingleRow(t *testing.T) {
	got := Transpose([][]int{{7, 8, 9}})
	want := [][]int{{7}, {8}, {9}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Transpose(1x3) = %v, want %v", got, want)
	}
}

func TestEmpty(t *testing.T) {
	if got := Transpose(nil); len(got) != 0 {
		t.Errorf("Transpose(nil) = %v, want no rows", got)
	}
	if got := Transpose([][]int{}); len(got) != 0 {
		t.Errorf("Transpose(empty) = %v, want no rows", got)
	}
}

func TestInputUnchanged(t *testing.T) {
	m := [][]int{{1, 2}, {3, 4}}
	out := Transpose(m)
	if !reflect.DeepEqual(m, [][]int{{1, 2}, {3, 4}}) {
		t.Fatalf("input changed to %v", m)
	}
	if len(out) > 0 && len(out[0]) > 0 {
		out[0][0] = 99
		if m[0][0] == 99 {
			t.Errorf("result shares storage with the input")
		}
	}
}

func TestRagged(t *testing.T) {
	if got := Transpose([][]int{{1, 2, 3}, {4}}); got != nil {
		t.Errorf("Transpose(ragged) = %v, want nil", got)
	}
	if got := Transpose([][]int{{1}, {2, 3}}); got != nil {
		t.Errorf("Transpose(ragged) = %v, want nil", got)
	}
}
