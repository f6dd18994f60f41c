package dimred

import (
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

// ProjectTo stores in dst the latent points of the rows of Ynew (m×p):
// for each new y*, the x* maximising the predictive density of the fitted
// model (Lawrence 2005 §5 "projection"; with the prior p(x*) = N(0, I)
// when the fit had it),
//
//	log p(y* | x*) = log N(y* − μ | k(x*, B)α, s(x*) I),
//	s(x*) = k(x*, x*) − k(x*, B) W k(B, x*) + σ²,
//
// where B are the training latent points and W = (K + σ²I)⁻¹ for the exact
// model, B = Z and W = K_mm⁻¹ − σ²(σ²K_mm + K_mnK_nm)⁻¹ for the sparse one.
// Each x* starts from the back-constraint's map of y* when there is one,
// otherwise from the latent point of the nearest training row, and is
// refined by L-BFGS (at most 200 iterations). The density can have several
// modes: x* is the mode found from that start. Projecting a training row
// gives a point near, not at, its fitted latent point: the fitted X
// maximises the joint likelihood of all points, x* the density of one.
// Rows are projected in parallel. After FitMissing the predictive mean
// uses the training data with missing entries filled by column means.
func (m *GPLVM) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	f := m.fit
	r, c := Ynew.Dims()
	if c != f.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("GPLVM", Ynew, "Ynew")
	dense.ReuseAs(dst, r, f.q)
	yn := mat.NewDense(r, c, nil)
	yn.Apply(func(i, j int, v float64) float64 { return v - f.mu[j] }, Ynew)
	start := f.startPoints(yn)
	parallel.For(r, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := append([]float64(nil), start.RawRowView(i)...)
			f.projectRow(x, yn.RawRowView(i))
			dst.SetRow(i, x)
		}
	})
}

// startPoints returns the starting latent points of the centred rows yn.
func (f *gplvmFit) startPoints(yn *mat.Dense) *mat.Dense {
	r, _ := yn.Dims()
	x0 := mat.NewDense(r, f.q, nil)
	if f.bcA != nil {
		kb := mat.NewDense(r, f.n, nil)
		kernel.Cross(kb, f.bcKernel, yn, f.yc)
		x0.Mul(kb, f.bcA)
		return x0
	}
	parallel.For(r, 1, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			yi := yn.RawRowView(i)
			best, bd := 0, math.Inf(1)
			for j := range f.n {
				yj := f.yc.RawRowView(j)
				var d float64
				for k := range yi {
					e := yi[k] - yj[k]
					d += e * e
				}
				if d < bd {
					best, bd = j, d
				}
			}
			x0.SetRow(i, f.x.RawRowView(best))
		}
	})
	return x0
}

// projectRow refines x (len q) to a mode of log p(y|x) + log p(x).
func (f *gplvmFit) projectRow(x, y []float64) {
	it := newIteration("GPLVM ProjectTo", 200, 1e-10, nil, 200, 1e-10).perPoint(1)
	saved := append([]float64(nil), x...)
	_, obj, err := it.maximise(x, 1e-8, func(grad, xv []float64) float64 {
		return f.predictiveLogDensity(grad, xv, y)
	})
	if err != nil && (math.IsNaN(obj) || math.IsInf(obj, 0)) {
		copy(x, saved)
	}
}

// predictiveLogDensity returns log N(y | μ(x), s(x)I) (+ log N(x|0,I) with
// the prior) and its gradient with respect to x in grad (if non-nil).
func (f *gplvmFit) predictiveLogDensity(grad, x, y []float64) float64 {
	q, p := f.q, f.p
	nb, _ := f.basis.Dims()
	xm := mat.NewDense(1, q, append([]float64(nil), x...))
	kx := mat.NewDense(1, nb, nil)
	f.kern.CrossGramTo(kx, xm, f.basis)
	kss := f.kern.DiagTo(nil, xm)[0]
	kv := kx.RawRowView(0)
	wk := make([]float64, nb)
	wkv := mat.NewVecDense(nb, wk)
	wkv.MulVec(f.w, mat.NewVecDense(nb, kv))
	v := kss - dotF(kv, wk)
	if v < 0 {
		v = 0
	}
	s := v + f.sigma2
	mu := make([]float64, p)
	muv := mat.NewVecDense(p, mu)
	muv.MulVec(f.alpha.T(), mat.NewVecDense(nb, kv))
	var rr float64
	r := make([]float64, p)
	for d := range p {
		r[d] = y[d] - mu[d]
		rr += r[d] * r[d]
	}
	l := -0.5*float64(p)*math.Log(2*math.Pi*s) - rr/(2*s)
	if f.prior {
		l -= 0.5 * dotF(x, x)
	}
	if grad == nil {
		return l
	}
	dlds := -float64(p)/(2*s) + rr/(2*s*s)
	G := mat.NewDense(1, nb, nil)
	gr := G.RawRowView(0)
	ar := mat.NewVecDense(nb, gr)
	ar.MulVec(f.alpha, mat.NewVecDense(p, r))
	for j := range gr {
		gr[j] = gr[j]/s - 2*dlds*wk[j]
	}
	dx := mat.NewDense(1, q, nil)
	f.kern.CrossGrad(nil, dx, nil, G, xm, f.basis)
	f.kern.DiagGrad(nil, dx, []float64{dlds}, xm)
	for k := range q {
		grad[k] = dx.At(0, k)
		if f.prior {
			grad[k] -= x[k]
		}
	}
	return l
}

func dotF(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
