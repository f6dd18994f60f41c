package figures

import (
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/highdim"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/dimredbook/book/dimred"
)

// Fig1_6ProjectedGaussian is book Fig 1.6: 300 samples from a 2-D
// Gaussian N(0, A) with A = R Rᵀ, R a 2×2 standard normal matrix (the
// author's `a = randn(2); a = a*a'`), red dots on axes through the origin.
func Fig1_6ProjectedGaussian() (*Figure, error) {
	rng := rand.New(rand.NewPCG(1, 6))
	R := mat.NewDense(2, 2, []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()})
	var A mat.SymDense
	A.SymOuterK(1, R)
	var chol mat.Cholesky
	if !chol.Factorize(&A) {
		return nil, dimred.ErrSingular
	}
	var Y mat.Dense
	highdim.SampleGaussian(&Y, 300, []float64{0, 0}, &chol, rand.NewPCG(2, 6))
	xs, ys := mat.Col(nil, 0, &Y), mat.Col(nil, 1, &Y)
	lim := 0.0
	for i := range xs {
		lim = math.Max(lim, math.Max(math.Abs(xs[i]), math.Abs(ys[i])))
	}
	lim *= 1.05
	p := newPlot("", "", "")
	p.Add(line([]float64{-lim, lim}, []float64{0, 0}, color.Black, 0.8))
	p.Add(line([]float64{0, 0}, []float64{-lim, lim}, color.Black, 0.8))
	p.Add(scatter(xs, ys, color.RGBA{R: 220, A: 255}, 2, nil))
	equalAxes(p, -lim, lim)
	return &Figure{
		ID: "1.6", Caption: "Looking at a projected Gaussian: 300 samples from a 2-D Gaussian with a random covariance.",
		Data: "synthetic", Panels: []*plot.Plot{p}, Width: 10 * vg.Centimeter, Height: 10 * vg.Centimeter,
		Numbers: []Number{Ours("sample variance, first axis", stat.Variance(xs, nil)), Ours("sample variance, second axis", stat.Variance(ys, nil))},
	}, nil
}

// mogComponent is one component of the Fig 1.7 mixture: a 2-D PPCA
// Gaussian N(μ, w wᵀ + σ² I).
type mogComponent struct {
	mu     [2]float64
	w      [2]float64
	sigma2 float64
}

// Fig1_7MixtureOfGaussians is book Fig 1.7 (cited in §1.1), after
// the author's dimredPlotMog(20, 200): 20 equally weighted components, each
// N(μ_m, w_m w_mᵀ + σ_m² I) with w_m = 0.1·N(0, I₂) and σ_m² = 0.01·U(0, 1),
// the means 20 points drawn from 60 standard normal points; 200 samples.
// (a) the data; (b) the data with each component's two-standard-deviation
// ellipse. As in the original, the "fit" drawn is the generating mixture.
func Fig1_7MixtureOfGaussians() (*Figure, error) {
	const m, n = 20, 200
	rng := rand.New(rand.NewPCG(1, 7))
	pool := make([][2]float64, 60)
	for i := range pool {
		pool[i] = [2]float64{rng.NormFloat64(), rng.NormFloat64()}
	}
	perm := rng.Perm(len(pool))
	comps := make([]mogComponent, m)
	for k := range comps {
		comps[k] = mogComponent{
			mu:     pool[perm[k]],
			w:      [2]float64{0.1 * rng.NormFloat64(), 0.1 * rng.NormFloat64()},
			sigma2: 0.01 * rng.Float64(),
		}
	}
	var xs, ys []float64
	for i := 0; i < n; i++ {
		c := comps[rng.IntN(m)]
		z := rng.NormFloat64()
		s := math.Sqrt(c.sigma2)
		xs = append(xs, c.mu[0]+c.w[0]*z+s*rng.NormFloat64())
		ys = append(ys, c.mu[1]+c.w[1]*z+s*rng.NormFloat64())
	}
	lim := 0.0
	for i := range xs {
		lim = math.Max(lim, math.Max(math.Abs(xs[i]), math.Abs(ys[i])))
	}
	lim = math.Ceil(lim*1.1*2) / 2
	dataPanel := func(title string) *plot.Plot {
		p := newPlot(title, "", "")
		p.Add(scatter(xs, ys, color.RGBA{R: 220, A: 255}, 1.8, nil))
		equalAxes(p, -lim, lim)
		return p
	}
	a := dataPanel("(a)")
	b := dataPanel("(b)")
	for _, c := range comps {
		// covariance w wᵀ + σ² I: eigenvalues ‖w‖² + σ² along w, σ² across it
		l1 := c.w[0]*c.w[0] + c.w[1]*c.w[1] + c.sigma2
		theta := math.Atan2(c.w[1], c.w[0])
		ex, ey := ellipse(c.mu[0], c.mu[1], 2*math.Sqrt(l1), 2*math.Sqrt(c.sigma2), theta, 80)
		b.Add(line(ex, ey, color.RGBA{B: 200, A: 255}, 1))
	}
	return &Figure{
		ID: "1.7", Caption: "(a) A 2-D data set; (b) the mixture of 20 Gaussians that generated it, each component drawn as its two-standard-deviation ellipse.",
		Data: "synthetic", Panels: []*plot.Plot{a, b}, Width: 20 * vg.Centimeter, Height: 10 * vg.Centimeter,
		Numbers: []Number{Ours("components", m), Ours("samples", n)},
	}, nil
}

func init() {
	Register("1.6", 1, Fig1_6ProjectedGaussian)
	Register("1.7", 1, Fig1_7MixtureOfGaussians)
}
