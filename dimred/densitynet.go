package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/vec"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Activation is the hidden-unit nonlinearity of a multi-layer perceptron.
type Activation int

const (
	// Tanh hidden units, h = tanh(z), as in NETLAB's mlp and the book's
	// experiments.
	Tanh Activation = iota
	// Sigmoid hidden units, h = 1/(1 + e^{−z}), as written in book §6.3.3.
	Sigmoid
)

// DensityNetwork is MacKay's (1995) density network (book §6.3): a latent
// variable model with a standard normal prior on x, a multi-layer
// perceptron mapping
//
//	f(x) = Aᵀ h(Vᵀx + c) + b,  V q×H, c H, A H×p, b p,
//
// with H hidden units h = tanh or sigmoid and a linear output layer with
// bias, and isotropic Gaussian noise of precision β. The intractable
// marginal p(y) = ∫ N(y | f(x), β⁻¹I) N(x | 0, I) dx is replaced by its
// Monte Carlo estimate on one shared set of m latent samples x̂_s ~ N(0, I)
// drawn once (§6.3.1), so the objective is
//
//	L = Σ_i log (1/m) Σ_s N(y_i | f(x̂_s), β⁻¹I) − (α/2)(‖A‖²_F + ‖b‖²),
//
// the sample-based log-likelihood with a Gaussian weight decay on the
// output layer. Its gradient is the responsibility-weighted gradient of
// §6.3.2, r_is ∝ N(y_i | f(x̂_s), β⁻¹I):
//
//	∂L/∂f(x̂_s) = β Σ_i r_is (y_i − f(x̂_s)),
//	∂L/∂A = Hᵀ ∂L/∂F − αA,  ∂L/∂b = Σ_s ∂L/∂f(x̂_s) − αb,
//	∂L/∂log β = (np − β Σ_is r_is ‖y_i − f(x̂_s)‖²)/2,
//
// back-propagated through the hidden layer to V and c. The weight decay is
// in both the objective and its gradient; the reference code
// (dnetLogLikeGradients in GPmat) leaves it out of the gradient, so its
// optimiser follows the gradient of a different function from the one it
// reports. Fit maximises L over (V, c, A, b, log β) with L-BFGS (the
// reference uses scaled conjugate gradients).
//
// The latent position of an observation is its posterior mean
// x_i = Σ_s r_is x̂_s (book Fig 6.8).
type DensityNetwork struct {
	Q          int        // q, latent dimension, 1 ≤ q < p (required)
	Samples    int        // m, latent samples; 0 means 100
	Hidden     int        // H, hidden units; 0 means 20
	Activation Activation // zero value Tanh
	Alpha      float64    // α, output-layer weight decay; 0 means 1; negative panics

	MaxIter int     // L-BFGS major iterations; 0 means 1000
	Tol     float64 // stop when L changes by at most Tol·n in an iteration (Tol nats per point); 0 means 1e-9; negative: run MaxIter
	Monitor func(iter int, logLik float64) bool
	Src     rand.Source // samples and initial weights; nil means a fixed seed

	n, p, q, iters int
	prob           *dnProblem
	theta          []float64
	r              *mat.Dense // n×m responsibilities at the fit
	ll             float64
}

// dnProblem is the fixed part of a density network fit and its objective.
type dnProblem struct {
	y, xhat  *mat.Dense // n×p data, m×q samples
	yy       []float64
	sumYY    float64
	h        int
	act      Activation
	alpha    float64
	n, p, q  int
	m        int
	r        *mat.Dense // n×m, scratch: responsibilities of the last call
	z, hd, f *mat.Dense // m×H pre-activations, activations; m×p outputs
}

func (d *dnProblem) numParams() int { return d.q*d.h + d.h + d.h*d.p + d.p + 1 }

// unpack returns views of θ as V (q×H), c, A (H×p), b and log β.
func (d *dnProblem) unpack(theta []float64) (V *mat.Dense, c []float64, A *mat.Dense, b []float64, logBeta *float64) {
	o := 0
	V = mat.NewDense(d.q, d.h, theta[o:o+d.q*d.h])
	o += d.q * d.h
	c = theta[o : o+d.h]
	o += d.h
	A = mat.NewDense(d.h, d.p, theta[o:o+d.h*d.p])
	o += d.h * d.p
	b = theta[o : o+d.p]
	o += d.p
	return V, c, A, b, &theta[o]
}

// forward computes Z, H and F = f(X̂) for θ.
func (d *dnProblem) forward(V *mat.Dense, c []float64, A *mat.Dense, b []float64) {
	d.z.Mul(d.xhat, V)
	for s := 0; s < d.m; s++ {
		zr, hr := d.z.RawRowView(s), d.hd.RawRowView(s)
		floats.Add(zr, c)
		for j, z := range zr {
			hr[j] = activate(d.act, z)
		}
	}
	d.f.Mul(d.hd, A)
	for s := 0; s < d.m; s++ {
		floats.Add(d.f.RawRowView(s), b)
	}
}

func activate(a Activation, z float64) float64 {
	if a == Sigmoid {
		return 1 / (1 + math.Exp(-z))
	}
	return math.Tanh(z)
}

// dActivate is h′ in terms of h.
func dActivate(a Activation, h float64) float64 {
	if a == Sigmoid {
		return h * (1 - h)
	}
	return 1 - h*h
}

// eval returns L at θ and, when grad is non-nil, stores ∂L/∂θ there. It
// leaves the responsibilities in d.r.
func (d *dnProblem) eval(grad, theta []float64) float64 {
	V, c, A, b, lb := d.unpack(theta)
	beta := math.Exp(*lb)
	d.forward(V, c, A, b)
	lse := responsibilities(d.r, d.y, d.f, d.yy, beta)
	an := mat.Norm(A, 2)
	L := mixtureLogLik(lse, d.n, d.p, d.m, beta) - 0.5*d.alpha*(an*an+floats.Dot(b, b))
	if grad == nil {
		return L
	}
	gV, gc, gA, gb, glb := d.unpack(grad)
	RtY, g := rtY(d.r, d.y), colSums(d.r)
	S := weightedSqDist(RtY, d.f, g, d.sumYY)
	// dF = β(RᵀY − diag(g) F), m×p.
	dF := mat.NewDense(d.m, d.p, nil)
	for s := 0; s < d.m; s++ {
		row := dF.RawRowView(s)
		floats.AddScaledTo(row, RtY.RawRowView(s), -g[s], d.f.RawRowView(s))
		floats.Scale(beta, row)
	}
	gA.Mul(d.hd.T(), dF)
	gA.Sub(gA, mat.NewDense(d.h, d.p, floats.ScaleTo(make([]float64, d.h*d.p), d.alpha, A.RawMatrix().Data)))
	for k := range gb {
		gb[k] = -d.alpha * b[k]
	}
	for s := 0; s < d.m; s++ {
		floats.Add(gb, dF.RawRowView(s))
	}
	// dZ = (dF Aᵀ) ⊙ h′(Z).
	var dZ mat.Dense
	dZ.Mul(dF, A.T())
	for k := range gc {
		gc[k] = 0
	}
	for s := 0; s < d.m; s++ {
		zr, hr := dZ.RawRowView(s), d.hd.RawRowView(s)
		for j := range zr {
			zr[j] *= dActivate(d.act, hr[j])
		}
		floats.Add(gc, zr)
	}
	gV.Mul(d.xhat.T(), &dZ)
	*glb = 0.5 * (float64(d.n*d.p) - beta*S)
	return L
}

// Fit fits the density network to the n×p data Y. Errors: ErrNaN,
// ErrTooFewPoints (n ≤ q), ErrOverflow, ErrNotConverged when MaxIter is
// reached first (the model is usable). It panics unless 1 ≤ Q < p and the
// settings are valid.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *DensityNetwork) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *DensityNetwork) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.prob)
	checkSettings("DensityNetwork", m)
	m.prob = nil
	q, ms, h, alpha := m.Q, m.Samples, m.Hidden, m.Alpha
	if ms == 0 {
		ms = 100
	}
	if h == 0 {
		h = 20
	}
	if alpha == 0 {
		alpha = 1
	}
	if ms < 1 || h < 1 || !(alpha >= 0) || (m.Activation != Tanh && m.Activation != Sigmoid) {
		panic(fmt.Sprintf("dimred: DensityNetwork Samples = %d, Hidden = %d, Alpha = %v, Activation = %d", ms, h, alpha, m.Activation))
	}
	n, p := Y.Dims()
	if err := checkLatentDim("DensityNetwork", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	y := dense.AsDense(Y)
	rnd := rand.New(rng.FitSource(m.Src))
	d := &dnProblem{
		y: y, xhat: rng.NormalDense(rnd, ms, q), yy: linalg.RowSquaredNorms(y),
		h: h, act: m.Activation, alpha: alpha, n: n, p: p, q: q, m: ms,
		r: mat.NewDense(n, ms, nil), z: mat.NewDense(ms, h, nil), hd: mat.NewDense(ms, h, nil), f: mat.NewDense(ms, p, nil),
	}
	d.sumYY = vec.Sum(d.yy)
	// NETLAB's mlp initialisation: weights N(0, 1/(fan-in + 1)); the
	// output bias starts at the data mean and β at e⁻² (the reference).
	theta := make([]float64, d.numParams())
	V, c, A, b, lb := d.unpack(theta)
	s1, s2 := 1/math.Sqrt(float64(q+1)), 1/math.Sqrt(float64(h+1))
	for _, v := range []struct {
		x []float64
		s float64
	}{{V.RawMatrix().Data, s1}, {c, s1}, {A.RawMatrix().Data, s2}} {
		for i := range v.x {
			v.x[i] = v.s * rnd.NormFloat64()
		}
	}
	copy(b, linalg.ColumnMeans(y))
	*lb = -2

	it := newIteration("DensityNetwork", m.MaxIter, m.Tol, m.Monitor, 1000, defaultEMTol).perPoint(n).under(ctx)
	iters, _, err := it.maximise(theta, 1e-6, d.eval)
	m.iters = iters
	if err != nil && !isNotConverged(err) {
		return err
	}
	ll := d.eval(nil, theta) // leaves the responsibilities of θ in d.r
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		return fmt.Errorf("%w: DensityNetwork log-likelihood %v", ErrOverflow, ll)
	}
	m.n, m.p, m.q = n, p, q
	m.theta, m.r, m.ll = theta, mat.DenseCopyOf(d.r), ll
	m.prob = d
	return err
}

func (m *DensityNetwork) mustFit() {
	if m.prob == nil {
		panic("dimred: DensityNetwork used before a successful Fit")
	}
}

// LatentTo stores the posterior means x_i = Σ_s r_is x̂_s (n×q) of the
// training data in dst.
func (m *DensityNetwork) LatentTo(dst *mat.Dense) {
	m.mustFit()
	latentDst(dst, m.n, m.q)
	latentMeansTo(dst, m.r, m.prob.xhat)
}

// ResponsibilitiesTo stores the posterior probabilities r_is (r×m) of the
// latent samples for the rows of Y (r×p) in dst; each row sums to one.
func (m *DensityNetwork) ResponsibilitiesTo(dst *mat.Dense, Y mat.Matrix) {
	m.mustFit()
	r, p := Y.Dims()
	if p != m.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("DensityNetwork.ResponsibilitiesTo", Y, "Y")
	latentDst(dst, r, m.prob.m)
	y := dense.AsDense(Y)
	responsibilities(dst, y, m.prob.f, linalg.RowSquaredNorms(y), m.Beta())
}

// ProjectTo stores the posterior means of the rows of Ynew (r×p) in dst
// (r×q).
func (m *DensityNetwork) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	checkProjectInput("DensityNetwork.ProjectTo", Ynew, "Ynew")
	r, _ := Ynew.Dims()
	latentDst(dst, r, m.q)
	var R mat.Dense
	m.ResponsibilitiesTo(&R, Ynew)
	latentMeansTo(dst, &R, m.prob.xhat)
}

// SamplesTo stores the latent samples X̂ (m×q) in dst.
func (m *DensityNetwork) SamplesTo(dst *mat.Dense) {
	m.mustFit()
	latentDst(dst, m.prob.m, m.q)
	dst.Copy(m.prob.xhat)
}

// MapTo stores f(x) (r×p) of the latent points X (r×q) in dst.
func (m *DensityNetwork) MapTo(dst *mat.Dense, X mat.Matrix) {
	m.mustFit()
	r, q := X.Dims()
	if q != m.q {
		panic(mat.ErrShape)
	}
	checkProjectInput("DensityNetwork.MapTo", X, "X")
	latentDst(dst, r, m.p)
	V, c, A, b, _ := m.prob.unpack(m.theta)
	var Z mat.Dense
	Z.Mul(X, V)
	for i := 0; i < r; i++ {
		row := Z.RawRowView(i)
		for j := range row {
			row[j] = activate(m.prob.act, row[j]+c[j])
		}
	}
	dst.Mul(&Z, A)
	for i := 0; i < r; i++ {
		floats.Add(dst.RawRowView(i), b)
	}
}

// Beta returns the noise precision β.
func (m *DensityNetwork) Beta() float64 {
	m.mustFit()
	_, _, _, _, lb := m.prob.unpack(m.theta)
	return math.Exp(*lb)
}

// LogLikelihood returns the objective L at the fit.
func (m *DensityNetwork) LogLikelihood() float64 { m.mustFit(); return m.ll }

// Iterations returns the number of optimiser iterations of the last Fit.
func (m *DensityNetwork) Iterations() int { return m.iters }

var _ Projector = (*DensityNetwork)(nil)
