package dimred_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/dimredbook/book/dimred"
)

// sample3D draws n points near the plane spanned by two directions in 3-D.
func sample3D(n int) *mat.Dense {
	rng := rand.New(rand.NewPCG(1, 1))
	Y := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		x0, x1 := rng.NormFloat64(), rng.NormFloat64()
		Y.Set(i, 0, x0+0.1*rng.NormFloat64())
		Y.Set(i, 1, 0.5*x0+x1+0.1*rng.NormFloat64())
		Y.Set(i, 2, x1+0.1*rng.NormFloat64())
	}
	return Y
}

func ExamplePCA() {
	Y := sample3D(500)
	pca := dimred.PCA{Q: 2}
	if err := pca.Fit(Y); err != nil {
		panic(err)
	}
	var X mat.Dense
	pca.LatentTo(&X) // principal-component scores, 500×2
	r, c := X.Dims()
	fmt.Printf("scores %d×%d, variance explained %.3f\n", r, c, pca.VarianceExplained())
	// Output: scores 500×2, variance explained 0.997
}

func ExamplePPCA() {
	Y := sample3D(500)
	m := dimred.PPCA{Q: 2}
	if err := m.Fit(Y); err != nil {
		panic(err)
	}
	fmt.Printf("σ = %.2f\n", math.Sqrt(m.NoiseVariance()))
	// σ² is the mean of the discarded eigenvalues; EM reaches the same point.
	em := dimred.PPCA{Q: 2, Method: dimred.PPCAEM}
	if err := em.Fit(Y); err != nil {
		panic(err)
	}
	fmt.Printf("log-likelihood: eigen %.3f, EM %.3f\n", m.LogLikelihood(), em.LogLikelihood())
	// Output:
	// σ = 0.10
	// log-likelihood: eigen -1144.402, EM -1144.402
}

func ExamplePPCA_FitMissing() {
	Y := sample3D(500)
	Y.Set(0, 1, math.NaN()) // NaN marks a missing value
	Y.Set(7, 2, math.NaN())
	m := dimred.PPCA{Q: 2}
	if err := m.FitMissing(Y); err != nil {
		panic(err)
	}
	var X mat.Dense
	m.LatentTo(&X) // posterior means; missing entries integrated out
	fmt.Printf("σ = %.2f, point 0 at (%.2f, %.2f)\n", math.Sqrt(m.NoiseVariance()), X.At(0, 0), X.At(0, 1))
	// Output: σ = 0.10, point 0 at (0.84, 0.48)
}

func ExampleBayesianPCA() {
	// 3-D data that really live on a plane: ARD switches the third
	// latent column off.
	Y := sample3D(500)
	b := dimred.BayesianPCA{} // Q = p − 1 = 2 by default
	if err := b.Fit(Y); err != nil {
		panic(err)
	}
	fmt.Println("active dimensions:", b.ActiveDims())
	// Output: active dimensions: 2
}

func ExampleFactorAnalysis() {
	// One factor seen by four features with different noise levels.
	rng := rand.New(rand.NewPCG(2, 2))
	sd := []float64{0.1, 0.3, 0.5, 1}
	Y := mat.NewDense(5000, 4, nil)
	for i := 0; i < 5000; i++ {
		x := rng.NormFloat64()
		for j, s := range sd {
			Y.Set(i, j, x+s*rng.NormFloat64())
		}
	}
	fa := dimred.FactorAnalysis{Q: 1}
	if err := fa.Fit(Y); err != nil {
		panic(err)
	}
	fmt.Printf("noise variances ψ = %.2f (true 0.01 0.09 0.25 1)\n", fa.NoiseVariancesTo(nil))
	// Output: noise variances ψ = [0.01 0.09 0.26 1.00] (true 0.01 0.09 0.25 1)
}
