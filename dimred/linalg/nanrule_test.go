package linalg

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The helpers without an error result follow gonum's garbage-in rule,
// as their doc comments say: a NaN in the input gives NaN in the output
// (at least where it belongs), never a panic or a silently finite answer
// that hides it. Provenance: an outside-in test of the public API asked
// what these helpers do with NaN; the behaviour is documented, not
// changed.
func TestHelpersNaNInNaNOut(t *testing.T) {
	Y := mat.NewDense(4, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 10, 0, 1, 1})
	Y.Set(2, 1, math.NaN())
	hasNaN := func(s []float64) bool {
		for _, v := range s {
			if math.IsNaN(v) {
				return true
			}
		}
		return false
	}
	if mu := ColumnMeans(Y); !math.IsNaN(mu[1]) || math.IsNaN(mu[0]) {
		t.Errorf("ColumnMeans = %v, want NaN in column 1 only", mu)
	}
	if v := ColumnVariances(Y); !math.IsNaN(v[1]) {
		t.Errorf("ColumnVariances = %v, want NaN in column 1", v)
	}
	var c mat.Dense
	CentreColumns(&c, Y)
	if !hasNaN(mat.Col(nil, 1, &c)) {
		t.Error("CentreColumns: no NaN in column 1")
	}
	var s mat.Dense
	if sd := Standardise(&s, Y); !math.IsNaN(sd[1]) || !hasNaN(mat.Col(nil, 1, &s)) {
		t.Errorf("Standardise: sd = %v, want NaN in column 1 and its output", sd)
	}
	var D mat.Dense
	SquaredDistances(&D, Y, Y)
	if !hasNaN(D.RawRowView(2)) {
		t.Error("SquaredDistances: no NaN in row 2")
	}
	P := mat.NewSymDense(4, nil)
	PairwiseSquaredDistances(P, Y)
	if !math.IsNaN(P.At(2, 0)) {
		t.Errorf("PairwiseSquaredDistances: D[2,0] = %v, want NaN", P.At(2, 0))
	}
	Dn := mat.NewSymDense(3, []float64{0, 1, 4, 1, 0, 1, 4, 1, 0})
	Dn.SetSym(0, 2, math.NaN())
	B := DoubleCentre(nil, Dn)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if !math.IsNaN(B.At(i, j)) {
				t.Errorf("DoubleCentre: B[%d,%d] = %v, want NaN (through the grand mean)", i, j, B.At(i, j))
			}
		}
	}
}
