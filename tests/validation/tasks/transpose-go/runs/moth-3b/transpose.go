package transpose

// Transpose flips a matrix over its diagonal. Ragged input gives nil.
func Transpose(m [][]int) [][]int {
	if len(m) == 0 {
		return [][]int{}
	}
	n := len(m[0])
	for i := 1; i < len(m); i++ {
		if len(m[i]) != n {
			return nil
		}
	}
	t := make([][]int, n)
	for j := range t {
		t[j] = make([]int, len(m))
	}
	for i, row := range m {
		for j, v := range row {
			t[j][i] = v
		}
	}
	return t
}
