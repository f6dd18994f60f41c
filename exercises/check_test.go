package exercises

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func init() {
	Register("test.scalar", Answer{Want: func() (any, error) { return 2.5, nil }})
	Register("test.zero", Answer{Want: func() (any, error) { return []float64{0, 0}, nil }})
	Register("test.vector", Answer{Want: func() (any, error) { return []float64{1, -2, 3}, nil }})
	Register("test.eig", Answer{UpToSign: true, Want: func() (any, error) {
		return mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1}), nil
	}})
	Register("test.matrix", Answer{Hint: "centre first", Want: func() (any, error) {
		return mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6}), nil
	}})
}

// The verdicts: each wrong answer names the reason and never the value.
func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		id   string
		got  any
		ok   bool
		want string // substring of the reason
	}{
		{"test.scalar", 2.5, true, ""},
		{"test.scalar", 2.5 * (1 + 1e-9), true, ""},
		{"test.scalar", 2.6, false, "too large"},
		{"test.scalar", 2.5 * 1.001, false, "n against n−1"},
		{"test.scalar", 2.5 * (1 - 1e-3), false, "close (within 1 %)"},
		{"test.scalar", 1.0, false, "too small"},
		{"test.scalar", 5.0, false, "too large"},
		{"test.scalar", -2.5, false, "opposite sign"},
		{"test.scalar", "2.5", false, "cannot be checked"},
		{"test.vector", []float64{1, -2}, false, "2 numbers, the answer is 3 numbers"},
		{"test.vector", []float64{2, -4, 6}, false, "0.5 times"},
		{"test.vector", []float64{1, -2, 3.5}, false, "relative error"},
		{"test.vector", mat.NewVecDense(3, []float64{1, -2, 3}), true, ""},
		{"test.eig", mat.NewDense(3, 2, []float64{-1, 0, 0, 1, -1, 1}), true, "up to sign"},
		{"test.matrix", mat.NewDense(3, 2, []float64{1, 4, 2, 5, 3, 6}), false, "transposed"},
		{"test.matrix", mat.NewDense(2, 3, []float64{-1, 2, 3, -4, 5, 6}), false, "column 1 of yours has the opposite sign"},
		{"test.matrix", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 7}), false, "hint: centre first"},
		{"test.matrix", mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, nan()}), false, "entry (2, 3) of yours is NaN"},
		{"no.such", 1.0, false, "no exercise"},
		// Found by a review QA pass: a nil *mat.Dense (declared, never
		// assigned) crashed the check with a nil-pointer dereference, and a
		// wrong answer to a zero vector was "right up to a constant factor:
		// the answer is 0 times yours".
		{"test.matrix", (*mat.Dense)(nil), false, "nil *mat.Dense"},
		{"test.vector", (*mat.VecDense)(nil), false, "nil *mat.VecDense"},
		{"test.zero", []float64{1, 0}, false, "relative error"},
	} {
		ok, why := Verdict(tc.id, tc.got)
		if ok != tc.ok || !strings.Contains(why, tc.want) {
			t.Errorf("Verdict(%s, %v) = %v, %q; want %v and a reason containing %q", tc.id, tc.got, ok, why, tc.ok, tc.want)
		}
		for _, leak := range []string{"2.5 ", "4 5 6", "times yours"} {
			if tc.id != "test.scalar" && leak == "times yours" {
				continue
			}
			if !ok && strings.Contains(why, leak) {
				t.Errorf("Verdict(%s) leaks the answer: %q", tc.id, why)
			}
		}
	}
}

func nan() float64 { var z float64; return z / z }
