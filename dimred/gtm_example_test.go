package dimred_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// A GTM with a 12×12 latent grid on points near a curve in 3-D: the latent
// means, the posterior over grid points and the local stretch of the map.
func ExampleGTM() {
	rnd := rand.New(rand.NewPCG(1, 1))
	Y := mat.NewDense(200, 3, nil)
	for i := 0; i < 200; i++ {
		t := 4*rnd.Float64() - 2
		Y.SetRow(i, []float64{t, math.Sin(2 * t), 0.5 * t * t})
	}
	m := &dimred.GTM{Q: 2, Grid: 12}
	if err := m.Fit(Y); err != nil {
		fmt.Println(err)
		return
	}
	var X, R mat.Dense
	m.LatentTo(&X)
	m.ResponsibilitiesTo(&R, Y.Slice(0, 1, 0, 3))
	r, c := X.Dims()
	fmt.Printf("latent means %d×%d; posterior over %d grid points sums to %.3f\n", r, c, R.RawMatrix().Cols, mat.Sum(&R))
	mf := m.MagnificationFactors(mat.NewDense(1, 2, []float64{0, 0}))
	fmt.Println("stretch at the origin positive:", mf[0] > 0)
	// Output:
	// latent means 200×2; posterior over 144 grid points sums to 1.000
	// stretch at the origin positive: true
}
