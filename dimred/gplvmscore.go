package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// GPLVMScore is the quality score of an embedding used in the spectral
// paper (Lawrence 2012, "A unifying probabilistic perspective for spectral
// dimensionality reduction", §4, after Harmeling 2007): the log marginal
// likelihood of a Gaussian-process regression from the embedding X (n×q)
// back to the data Y (n×p),
//
//	S = −(p/2) log|K| − ½ tr(K⁻¹ Ŷ Ŷᵀ) − (np/2) log 2π,
//
// with Ŷ the data with each feature's mean removed (not rescaled) and K
// the n×n Gram matrix of the rows of X under the kernel, by default
//
//	k(x, x') = α_r exp(−‖x − x'‖²/(2ℓ²)) + α_b + α_w δ,
//
// RBF + bias + white noise, started from α_r = 1, ℓ = 1, α_b = α_w = e⁻²
// (the reference code's lvmScoreModel). The hyperparameters (in log form)
// maximise S; X stays fixed. The higher the score the better the embedding
// explains the data. The score depends on the scale of X relative to ℓ
// only through the start of the optimisation, but on the relative scale of
// X's columns (the RBF is isotropic): the paper's embeddings have unit
// variance per column, and so should the embeddings compared.
//
// The optimiser is the package's L-BFGS driver, not the reference's scaled
// conjugate gradients run for 2000 iterations; both find a local optimum
// of the same function, and from the same start they usually find the same
// one. One evaluation costs a Cholesky factorisation of K, O(n³ + n²p).
//
// Scale: with the default kernel every term of K has a free variance, so
// the model is scale-equivariant — K ↦ s²K maps the optimum for Y to the
// optimum for sY — and its maximised log likelihood obeys
//
//	S(sY) = S(Y) − np·log s,
//
// the variances' log hyperparameters moving by 2 log s and ℓ not at all.
// The reference start α_r = 1 only suits data of about unit scale: from it
// the optimiser stopped at once on data ~1e±10 or beyond (the score of
// 1e150·Y was 8e7 nats too low). So, with the default kernel, data whose
// root-mean-square Ŷ entry lies outside [2^-10.5, 2^10.5] (about 7e-4 to
// 1.4e3) are divided by the power of two c nearest that RMS before the
// optimisation (exactly), and S and θ are mapped back (S − np·log c, log
// variances + 2 log c). Inside that range the reference start is used in
// the data's own units, as the reference code does. A Kernel of the
// caller's starts where the caller put it, in the data's units, and is
// not rescaled.
type GPLVMScore struct {
	// Kernel, if non-nil, is the covariance function, with its starting
	// hyperparameters; Score optimises a copy and leaves Kernel as it was
	// (the optimum is in the result's Params). nil means the
	// paper's RBF + bias + white kernel with the reference's start.
	Kernel kernel.ParamKernel
	// MaxIter caps the L-BFGS iterations; 0 means 1000.
	MaxIter int
	// Tol: convergence when one iteration gains at most Tol nats per data
	// point; 0 means 1e-9; negative runs MaxIter iterations.
	Tol float64
	// Monitor sees the iteration and the log-likelihood; true stops.
	Monitor func(iter int, logLik float64) bool
	// Jitter is added to the diagonal of K, relative to the mean variance
	// of the features: K + Jitter·(tr ŶᵀŶ/np)·I. Zero means 1e-6; negative
	// means none. On nearly noiseless data the white-noise variance heads
	// to zero and K to singularity, where round-off stops the optimiser
	// (the reference code has no jitter; its SCG stops wherever round-off
	// leaves it). The jitter bounds the noise variance below at a level
	// that does not change the score of noisy data.
	Jitter float64
}

// GPLVMScoreResult is the outcome of GPLVMScore.Score.
type GPLVMScoreResult struct {
	LogLikelihood float64   // S at the optimum
	Params        []float64 // the optimal θ (log hyperparameters)
	ParamNames    []string  // what each θ is
	Iterations    int       // L-BFGS iterations
}

// DefaultScoreKernel returns the paper's score kernel RBF + bias + white
// at the reference's starting values (α_r = 1, ℓ = 1, α_b = α_w = e⁻²).
func DefaultScoreKernel() kernel.Sum {
	return kernel.Sum{
		&kernel.RBF{Variance: 1, LengthScale: 1},
		&kernel.Bias{Variance: math.Exp(-2)},
		&kernel.White{Variance: math.Exp(-2)},
	}
}

// Score fits the GP hyperparameters and returns the maximised log
// marginal likelihood of Y (n×p) given the embedding X (n×q). Neither X
// nor Y is modified. It returns an error wrapping ErrNaN for non-finite
// input, ErrTooFewPoints for n < 2, ErrSingular if the Gram matrix loses
// positive definiteness at the start, ErrOverflow when the data's sum of
// squares or the log likelihood overflows float64 (data ~1e+155 with a
// Kernel of the caller's; with the default kernel any finite Y is scored),
// or ErrNotConverged (with the result at the last iterate) when MaxIter is
// reached.
func (s *GPLVMScore) Score(X, Y mat.Matrix) (*GPLVMScoreResult, error) {
	return s.ScoreContext(context.Background(), X, Y)
}

// ScoreContext is Score under ctx: cancelling ctx stops the optimisation
// at its next evaluation with an error wrapping ctx.Err() and no result;
// the L-BFGS iterations are reported to ctx's progress.Reporter (see the
// package doc, "Cancellation and progress").
func (s *GPLVMScore) ScoreContext(ctx context.Context, X, Y mat.Matrix) (*GPLVMScoreResult, error) {
	checkSettings("GPLVMScore", s)
	n, _ := X.Dims()
	ny, p := Y.Dims()
	if ny != n {
		panic(mat.ErrShape)
	}
	if n < 2 {
		return nil, fmt.Errorf("%w: GPLVMScore needs at least 2 points, have %d", ErrTooFewPoints, n)
	}
	if p == 0 {
		panic(noColumns("GPLVMScore"))
	}
	if err := errs.CheckFinite(X, "X"); err != nil {
		return nil, err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, err
	}
	// Score optimises a copy (kernel.Clone): the caller's Kernel keeps its
	// starting hyperparameters, and the result's Params report the optimum.
	k := kernel.Clone(s.Kernel)
	own := k != nil
	if !own {
		k = DefaultScoreKernel()
	}
	// Centre a copy at a safe scale: Y = ys·2^e (linalg.UnitScale; e = 0
	// and ys = Y for data of ordinary scale).
	ys, sc := linalg.UnitScale(Y)
	e := powerOfTwo(sc)
	Yc := mat.DenseCopyOf(ys)
	for j := 0; j < p; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += Yc.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			Yc.Set(i, j, Yc.At(i, j)-m)
		}
	}
	// The optimisation works on Ŷ/2^ec: ec is 0, or with the default
	// kernel the power of two nearest the RMS of Ŷ when that lies outside
	// 2^±10.5 (see Scale on GPLVMScore).
	ec := 0
	if !own {
		if v := meanSquare(Yc); v > 0 {
			if r := e + int(math.Round(0.5*math.Log2(v))); r < -10 || r > 10 {
				ec = r
			}
		}
	}
	if d := e - ec; d != 0 {
		Yc.Apply(func(_, _ int, v float64) float64 { return math.Ldexp(v, d) }, Yc)
	}
	if v := meanSquare(Yc); math.IsInf(v, 0) {
		return nil, errs.Overflowf("GPLVMScore: the mean square of the centred Y overflows; rescale Y or use the default kernel")
	}
	shift := float64(ec) * math.Ln2 // log c: S = S_c − np·log c
	mon := s.Monitor
	if mon != nil && ec != 0 {
		mon = func(iter int, ll float64) bool { return s.Monitor(iter, ll-float64(n*p)*shift) }
	}
	Xd := mat.DenseCopyOf(X)
	ev := newGPEval(k, Xd, Yc)
	ev.jitter = scoreJitter(Yc, s.Jitter)
	theta := k.Params(nil)
	if v := ev.eval(nil, theta); math.IsInf(v, -1) || math.IsNaN(v) {
		if ev.chol.Factorize(ev.K) {
			// K is positive definite: the likelihood itself overflowed.
			return nil, errs.Overflowf("GPLVMScore: the log-likelihood at the start is %v; rescale Y or the kernel's start", v)
		}
		return nil, fmt.Errorf("%w: GPLVMScore: the Gram matrix at the start is not positive definite", ErrSingular)
	}
	it := newIteration("GPLVMScore L-BFGS", s.MaxIter, s.Tol, mon, 1000, 1e-9).perPoint(n).under(ctx)
	iters, obj, err := it.maximise(theta, 1e-6, ev.eval)
	if cancelled(err) {
		return nil, err
	}
	// A line search that cannot move (gonum's "no change in location" or
	// "failed to converge") happens where the likelihood is flat to
	// round-off: typically the white-noise variance heading to zero below
	// the jitter, a direction in which the gradient vanishes without a
	// stationary point. Restart L-BFGS from the point reached (it discards
	// a curvature memory spoilt by round-off); when a fresh start gains
	// under 1e-6 nats per point, the fit has converged as far as floating
	// point allows.
	for restart := 0; restart < 3 && err != nil && isNotConverged(err) && iters < it.maxIter; restart++ {
		more, o, e := it.maximise(theta, 1e-6, ev.eval)
		if cancelled(e) {
			return nil, e
		}
		iters += more
		gain := o - obj
		if o > obj {
			obj = o
		}
		err = e
		if e != nil && gain <= 1e-6*float64(n) {
			err = nil
		}
	}
	if ec != 0 {
		// Back to the data's units: the log variances of the default
		// kernel (RBF, bias, white) move by 2 log c, ℓ does not.
		obj -= float64(n*p) * shift
		theta[0] += 2 * shift
		theta[2] += 2 * shift
		theta[3] += 2 * shift
	}
	k.SetParams(theta)
	res := &GPLVMScoreResult{LogLikelihood: obj, Params: theta, ParamNames: k.ParamNames(), Iterations: iters}
	if math.IsNaN(obj) || math.IsInf(obj, 0) {
		return nil, fmt.Errorf("%w: GPLVMScore log-likelihood %v", ErrOverflow, obj)
	}
	return res, err
}

// gpEval evaluates the GP log marginal likelihood and its θ-gradient.
type gpEval struct {
	k    kernel.ParamKernel
	X, Y *mat.Dense
	K    *mat.SymDense
	Kinv *mat.SymDense
	A    *mat.Dense
	G    *mat.SymDense
	chol mat.Cholesky
	// jitter is added to K's diagonal (a constant: no gradient).
	jitter float64
}

func newGPEval(k kernel.ParamKernel, X, Y *mat.Dense) *gpEval {
	n, p := Y.Dims()
	return &gpEval{k: k, X: X, Y: Y, K: mat.NewSymDense(n, nil), Kinv: mat.NewSymDense(n, nil),
		A: mat.NewDense(n, p, nil), G: mat.NewSymDense(n, nil)}
}

// eval returns S(θ) and, if grad is non-nil, ∂S/∂θ = Σ_ij G_ij ∂K_ij/∂θ
// with G = ∂S/∂K = ½(K⁻¹ŶŶᵀK⁻¹ − p K⁻¹). A Gram matrix that is not
// positive definite gives −Inf (the optimiser's line search backs off).
func (e *gpEval) eval(grad, theta []float64) float64 {
	e.k.SetParams(theta)
	n, p := e.Y.Dims()
	e.k.GramTo(e.K, e.X)
	for i := 0; i < n && e.jitter > 0; i++ {
		e.K.SetSym(i, i, e.K.At(i, i)+e.jitter)
	}
	if ok := e.chol.Factorize(e.K); !ok {
		for i := range grad {
			grad[i] = 0
		}
		return math.Inf(-1)
	}
	if err := e.chol.SolveTo(e.A, e.Y); err != nil {
		return math.Inf(-1)
	}
	var tr float64
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			tr += e.Y.At(i, j) * e.A.At(i, j)
		}
	}
	ll := -0.5*float64(p)*e.chol.LogDet() - 0.5*tr - 0.5*float64(n*p)*math.Log(2*math.Pi)
	if grad != nil {
		if err := e.chol.InverseTo(e.Kinv); err != nil {
			return math.Inf(-1)
		}
		e.G.SymOuterK(0.5, e.A)
		e.G.AddSym(e.G, scaledSym(e.Kinv, -0.5*float64(p)))
		e.k.ParamGrad(grad, e.G, e.X)
	}
	return ll
}

func scaledSym(a *mat.SymDense, f float64) *mat.SymDense {
	var s mat.SymDense
	s.ScaleSym(f, a)
	return &s
}

// scoreJitter returns the absolute jitter rel·tr(ŶᵀŶ)/(np) for centred
// Yc (rel 0 means 1e-6, negative none).
func scoreJitter(Yc *mat.Dense, rel float64) float64 {
	if rel == 0 {
		rel = 1e-6
	}
	if rel < 0 {
		return 0
	}
	n, p := Yc.Dims()
	var v float64
	for i := 0; i < n; i++ {
		for _, x := range Yc.RawRowView(i) {
			v += x * x
		}
	}
	return rel * v / float64(n*p)
}

// meanSquare returns tr(YcᵀYc)/(np), the mean square of the entries of Yc.
func meanSquare(Yc *mat.Dense) float64 {
	n, p := Yc.Dims()
	var v float64
	for i := 0; i < n; i++ {
		for _, x := range Yc.RawRowView(i) {
			v += x * x
		}
	}
	return v / float64(n*p)
}
