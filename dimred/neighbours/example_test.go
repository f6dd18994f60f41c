package neighbours_test

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// Geodesic distances along a k-nearest-neighbour graph: points on a circle
// are joined to their two neighbours, so the geodesic between opposite
// points is half the perimeter of the inscribed polygon.
func ExampleGeodesicDistances() {
	n := 12
	Y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		t := 2 * math.Pi * float64(i) / float64(n)
		Y.Set(i, 0, math.Cos(t))
		Y.Set(i, 1, math.Sin(t))
	}
	g, err := neighbours.KNNGraph(Y, 2, neighbours.Union)
	if err != nil {
		panic(err)
	}
	G, err := neighbours.GeodesicDistances(g)
	if err != nil {
		panic(err)
	}
	chord := 2 * math.Sin(math.Pi/float64(n))
	fmt.Printf("straight %.4f, geodesic %.4f = 6 chords %.4f\n", 2.0, G.At(0, 6), 6*chord)
	// Output: straight 2.0000, geodesic 3.1058 = 6 chords 3.1058
}

// The bottom eigenvectors of a sparse graph Laplacian, as in Laplacian
// eigenmaps: the first eigenvalue of a connected graph is zero.
func ExampleLaplacian() {
	// A path graph 0–1–2–3–4 with unit weights.
	var i, j []int
	var w []float64
	for a := 0; a < 4; a++ {
		i, j, w = append(i, a, a+1), append(j, a+1, a), append(w, 1, 1)
	}
	L := neighbours.Laplacian(linalg.NewCSR(5, i, j, w))
	vals, _, err := linalg.EigenSymOp(L, 2, linalg.Smallest, nil)
	if err != nil {
		panic(err)
	}
	// Path-graph eigenvalues are 2 − 2cos(πk/5).
	fmt.Printf("%.4f %.4f (%.4f)\n", math.Abs(vals[0]), vals[1], 2-2*math.Cos(math.Pi/5))
	// Output: 0.0000 0.3820 (0.3820)
}
