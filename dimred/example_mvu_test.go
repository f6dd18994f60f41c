package dimred_test

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// Maximum variance unfolding pulls a curve straight: 30 points on a
// quarter circle of radius 2, each tied to its 2 nearest neighbours,
// unfold onto a line whose length is close to the arc length π (the
// neighbour chords, not the arc, are preserved, so slightly less).
func ExampleMVU() {
	n := 30
	Y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		a := math.Pi / 2 * float64(i) / float64(n-1)
		Y.Set(i, 0, 2*math.Cos(a))
		Y.Set(i, 1, 2*math.Sin(a))
	}
	m := &dimred.MVU{Q: 1, K: 2}
	if err := m.Fit(Y); err != nil {
		fmt.Println(err)
		return
	}
	vals := m.EigenvaluesTo(nil)
	var tr float64
	for _, v := range vals {
		tr += v
	}
	var X mat.Dense
	m.LatentTo(&X)
	r := m.SDPReport()
	fmt.Printf("share of tr K in one dimension: %.4f\n", vals[0]/tr)
	fmt.Printf("unrolled length: %.3f\n", math.Abs(X.At(n-1, 0)-X.At(0, 0)))
	fmt.Println("duality gap ≤ 1e-7:", r.Gap <= 1e-7)
	// Output:
	// share of tr K in one dimension: 1.0000
	// unrolled length: 3.141
	// duality gap ≤ 1e-7: true
}
