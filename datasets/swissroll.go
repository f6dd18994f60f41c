package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SwissRoll returns n points of the swiss roll, the standard
// manifold-learning benchmark (Tenenbaum, de Silva and Langford 2000;
// Roweis and Saul 2000): a sheet rolled into a spiral in R³,
//
//	y = (t cos t, h, t sin t),  t ~ U(1.5π, 4.5π),  h ~ U(0, 21),
//
// drawn from src in the order t, h for each point (one generator for the
// project's tests, benchmarks and figures, each passing its own source).
// Y is n×3; T is n×2, the unrolled sheet (s, h) with s the arc length of
// the spiral r = t from t = 1.5π, ½(t√(1+t²) + asinh t) − the same at 1.5π
// (s is not t, so an isometric embedding is a slightly curved map of
// (t, h)). A nil src means rand.NewPCG(1, 1), the project's fixed sampling
// seed. It panics if n < 1.
func SwissRoll(n int, src rand.Source) *Dataset {
	if n < 1 {
		panic(fmt.Sprintf("datasets: SwissRoll n = %d must be positive", n))
	}
	if src == nil {
		src = rand.NewPCG(1, 1)
	}
	rnd := rand.New(src)
	Y := mat.NewDense(n, 3, nil)
	T := mat.NewDense(n, 2, nil)
	s0 := spiralArc(1.5 * math.Pi)
	for i := 0; i < n; i++ {
		t := 1.5 * math.Pi * (1 + 2*rnd.Float64())
		h := 21 * rnd.Float64()
		Y.SetRow(i, []float64{t * math.Cos(t), h, t * math.Sin(t)})
		T.SetRow(i, []float64{spiralArc(t) - s0, h})
	}
	return &Dataset{
		Name:    "swiss roll",
		Y:       Y,
		T:       T,
		Details: fmt.Sprintf("%d points of the swiss roll y = (t cos t, h, t sin t), t ~ U(1.5π, 4.5π), h ~ U(0, 21); T = (arc length, h)", n),
	}
}

// spiralArc is the arc length of the spiral r = t from t = 0:
// ∫₀ᵗ √(1 + u²) du = ½(t√(1+t²) + asinh t).
func spiralArc(t float64) float64 {
	return 0.5 * (t*math.Sqrt(1+t*t) + math.Asinh(t))
}
