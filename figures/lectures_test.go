package figures

import (
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The lecture helpers draw what they are given, as added figures.
func TestLectureHelpersRender(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	img := []float64{0, 1, 2, 3, 4, 5}
	for _, f := range []*Figure{
		LectureScatter("L0.1", "points", "synthetic",
			ScatterPanel{Title: "a", X: X, Colour: []float64{0, 1, 2, 3}, Segments: [][4]float64{{0, 0, 1, 1}}, Equal: true},
			ScatterPanel{Title: "b", X: X, Labels: []int{0, 1, 0, 1}}),
		LectureLines("L0.2", "lines", "synthetic", "t", "k", "λ", true, Series{Name: "s", Y: []float64{3, 2, 1, 0}}),
		LectureImages("L0.3", "images", "synthetic", 2, 3, 2, true, [][]float64{img, img, img}, []string{"x", "y", "z"}),
		LectureMatrices("L0.4", "matrices", "synthetic", []string{"X Xᵀ"}, X),
	} {
		if f.Resolve() != Added {
			t.Errorf("figure %s: status %s, want added", f.ID, f.Resolve())
		}
		if _, err := f.PNG(); err != nil {
			t.Errorf("figure %s: %v", f.ID, err)
		}
	}
}
