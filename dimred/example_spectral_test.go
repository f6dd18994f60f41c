package dimred_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// Isomap unrolls a swiss roll: its first coordinate follows the arc length
// along the roll, and the rank-based quality of the embedding is high.
func ExampleIsomap() {
	rnd := rand.New(rand.NewPCG(1, 1))
	n := 800
	Y := mat.NewDense(n, 3, nil)
	arc := make([]float64, n)
	for i := 0; i < n; i++ {
		t := 1.5 * math.Pi * (1 + 2*rnd.Float64())
		Y.SetRow(i, []float64{t * math.Cos(t), 21 * rnd.Float64(), t * math.Sin(t)})
		arc[i] = 0.5 * (t*math.Sqrt(1+t*t) + math.Asinh(t))
	}
	iso := &dimred.Isomap{Q: 2, K: 8}
	if err := iso.Fit(Y); err != nil {
		fmt.Println(err)
		return
	}
	var X mat.Dense
	iso.LatentTo(&X)
	c, err := dimred.NeighbourhoodCurves(Y, &X, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("|corr(x₁, arc length)| > 0.99: %v\n", math.Abs(correlation(mat.Col(nil, 0, &X), arc)) > 0.99)
	fmt.Printf("Q_NX(10) > 0.8: %v\n", c.QNX[9] > 0.8)
	// Output:
	// |corr(x₁, arc length)| > 0.99: true
	// Q_NX(10) > 0.8: true
}

func correlation(a, b []float64) float64 {
	n := float64(len(a))
	var ma, mb, sab, saa, sbb float64
	for i := range a {
		ma += a[i] / n
		mb += b[i] / n
	}
	for i := range a {
		sab += (a[i] - ma) * (b[i] - mb)
		saa += (a[i] - ma) * (a[i] - ma)
		sbb += (b[i] - mb) * (b[i] - mb)
	}
	return sab / math.Sqrt(saa*sbb)
}
