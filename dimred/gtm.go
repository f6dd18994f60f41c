package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/vec"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// GTMBasis chooses the basis functions of the GTM's mapping.
type GTMBasis int

const (
	// GTMRandomCentres: NumBasis Gaussian basis functions (default 20) with
	// centres drawn from N(0, I_q) and never updated, width Width
	// (default 1) — the setting of the book's experiments (the reference
	// code's dnetOptions('rbf', ...), NETLAB's rbf).
	GTMRandomCentres GTMBasis = iota
	// GTMGridCentres: Gaussian basis functions centred on a regular grid
	// of NumBasis points per latent dimension (default 4) over the latent
	// box, as in Bishop, Svensén & Williams (1998); Width defaults to the
	// squared spacing of the centres.
	GTMGridCentres
	// GTMLinearBasis: φ(x) = x, so f(x) = Aᵀx + b is linear; the GTM is
	// then a constrained mixture of isotropic Gaussians on a plane.
	GTMLinearBasis
)

// GTM is the generative topographic mapping (Bishop, Svensén & Williams
// 1998; book §6.5). The latent density is a uniform mixture of deltas on a
// regular grid of m = g^q points x̂_k (§6.5.1), the mapping an RBF network
// with a bias (§6.5.2),
//
//	f(x) = Wᵀ φ̃(x),  φ̃(x) = [φ_1(x) … φ_M(x) 1]ᵀ,  W (M+1)×p,
//	φ_j(x) = exp(−‖x − c_j‖²/(2w)),
//
// and the noise isotropic with precision β, so p(y) = (1/m) Σ_k
// N(y | f(x̂_k), β⁻¹I), a constrained Gaussian mixture. A Gaussian prior
// w ~ N(0, α⁻¹) on every weight (bias included) regularises the map.
//
// Fit runs EM (§6.5.3). E-step: responsibilities r_ik ∝ exp(−β/2 ‖y_i −
// f(x̂_k)‖²), computed in log space. M-step, closed form (Bishop et al.
// 1998 eq. 12; not in the draft), with Φ̃ (m×(M+1)) the basis at the grid
// points and G = diag(Rᵀ1):
//
//	(Φ̃ᵀ G Φ̃ + (α/β) I) W = Φ̃ᵀ Rᵀ Y,   1/β = (1/np) Σ_ik r_ik ‖y_i − f(x̂_k)‖².
//
// The objective reported to Monitor and by LogLikelihood is the
// penalised log-likelihood
//
//	L = Σ_i log (1/m) Σ_k N(y_i | f(x̂_k), β⁻¹I) − (α/2)‖W‖²_F,
//
// which equals the EM lower bound right after each E-step and never
// decreases.
//
// Initialisation follows the reference code (and is Bishop's PPCA
// initialisation in spirit): the q-dimensional PPCA latent means are
// whitened to X₀ (unit variance per column), the grid spans 1.2 × the range
// of X₀ in each dimension, the initial responsibilities are a softmax of
// −‖X₀_i − x̂_k‖², and one M-step from β = e⁻² follows. So the map starts
// close to the principal plane.
type GTM struct {
	Q        int      // q, latent dimension, 1 ≤ q < p (required)
	Grid     int      // g, grid points per latent dimension (m = g^q); 0 means 16
	Basis    GTMBasis // zero value GTMRandomCentres
	NumBasis int      // M (random centres, 0 means 20) or centres per dimension (grid centres, 0 means 4)
	Width    float64  // w, basis variance; 0 means 1 (random) or the squared centre spacing (grid)
	Alpha    float64  // α, weight-prior precision; 0 means 1; negative panics

	// Centres, if non-nil, are the M×q centres c_j of the random-centre
	// basis (GTMRandomCentres only), used instead of drawing them from
	// N(0, I) with Src — for example the random centres of a saved
	// reference fit (Fig 6.10 refits the author's). NumBasis must be 0 or
	// M. Fit copies them.
	Centres *mat.Dense
	// InitLatent, if non-nil, is the n×q initial latent configuration X₀,
	// used as given (not whitened) in place of the whitened PPCA means: the
	// grid spans 1.2 × its range and the initial responsibilities are the
	// softmax of −‖X₀_i − x̂_k‖². It fixes, for example, the signs of the
	// principal axes to those of another implementation.
	InitLatent *mat.Dense

	MaxIter int     // EM iterations; 0 means 1000
	Tol     float64 // stop when L gains at most Tol·n in an iteration (Tol nats per point); 0 means 1e-9; negative: run MaxIter
	Monitor func(iter int, bound float64) bool
	Src     rand.Source // random centres; nil means a fixed seed

	n, p, q, iters int
	xhat           *mat.Dense // m×q grid
	centres        *mat.Dense // M×q RBF centres (nil for the linear basis)
	width          float64
	w              *mat.Dense // (M+1)×p
	f              *mat.Dense // m×p images of the grid points
	beta, ll       float64
	r              *mat.Dense // n×m responsibilities of the training data
}

func (m *GTM) defaults() (q, g, M int, w, alpha float64) {
	q, g, M, w, alpha = m.Q, m.Grid, m.NumBasis, m.Width, m.Alpha
	if g == 0 {
		g = 16
	}
	if alpha == 0 {
		alpha = 1
	}
	switch m.Basis {
	case GTMRandomCentres:
		if M == 0 {
			M = 20
		}
		if w == 0 {
			w = 1
		}
	case GTMGridCentres:
		if M == 0 {
			M = 4
		}
	case GTMLinearBasis:
	default:
		panic(fmt.Sprintf("dimred: unknown GTMBasis %d", m.Basis))
	}
	if g < 1 || M < 0 || w < 0 || alpha < 0 || math.IsNaN(w) || math.IsNaN(alpha) {
		panic(fmt.Sprintf("dimred: GTM Grid = %d, NumBasis = %d, Width = %v, Alpha = %v", g, M, w, alpha))
	}
	return q, g, M, w, alpha
}

// Fit fits the GTM to the n×p data Y by EM. Errors: ErrNaN, ErrTooFewPoints
// (n ≤ q), ErrSingular when the M-step system is singular, ErrOverflow, and
// ErrNotConverged when MaxIter is reached first (the model is usable). It
// panics unless 1 ≤ Q < p and the settings are valid.
//
// A Fit that returns any error other than ErrNotConverged leaves the model
// unfitted, discarding an earlier fit: later use panics.
func (m *GTM) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *GTM) FitContext(ctx context.Context, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.w)
	checkSettings("GTM", m)
	m.w = nil
	q, g, M, width, alpha := m.defaults()
	n, p := Y.Dims()
	if err := checkLatentDim("GTM", q, n, p); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	y := dense.AsDense(Y)

	if m.Centres != nil && m.Basis == GTMRandomCentres {
		if r, c := m.Centres.Dims(); c != q || (m.NumBasis != 0 && m.NumBasis != r) {
			panic(fmt.Sprintf("dimred: GTM Centres are %d×%d for Q = %d, NumBasis = %d", r, c, q, m.NumBasis))
		}
		if err := errs.CheckFinite(m.Centres, "GTM Centres"); err != nil {
			return err
		}
		M, _ = m.Centres.Dims()
	}
	var x0 mat.Dense
	lo, hi := make([]float64, q), make([]float64, q)
	if m.InitLatent != nil {
		// X₀ as given.
		if r, c := m.InitLatent.Dims(); r != n || c != q {
			panic(mat.ErrShape)
		}
		if err := errs.CheckFinite(m.InitLatent, "GTM InitLatent"); err != nil {
			return err
		}
		x0.CloneFrom(m.InitLatent)
		for l := 0; l < q; l++ {
			col := mat.Col(nil, l, &x0)
			lo[l], hi[l] = 1.2*floats.Min(col), 1.2*floats.Max(col)
			if !(hi[l] > lo[l]) {
				return fmt.Errorf("%w: GTM: InitLatent column %d is constant", ErrSingular, l)
			}
		}
	} else {
		// X₀: whitened PPCA latent means.
		pp := &PPCA{Q: q}
		if err := pp.FitContext(ctx, y); err != nil {
			return errs.Wrap(err, "GTM initialisation")
		}
		pp.LatentTo(&x0)
		mu, va := linalg.ColumnMeans(&x0), linalg.ColumnVariances(&x0)
		for l := 0; l < q; l++ {
			s := math.Sqrt(va[l])
			if !(s > 0) {
				return fmt.Errorf("%w: GTM: PPCA latent dimension %d has zero variance", ErrSingular, l)
			}
			col := mat.Col(nil, l, &x0)
			for i := range col {
				col[i] = (col[i] - mu[l]) / s
			}
			x0.SetCol(l, col)
			lo[l], hi[l] = 1.2*floats.Min(col), 1.2*floats.Max(col)
		}
	}
	xhat := kernel.Grid(lo, hi, g)
	mm, _ := xhat.Dims()

	var centres *mat.Dense
	switch m.Basis {
	case GTMRandomCentres:
		if m.Centres != nil {
			centres = mat.DenseCopyOf(m.Centres)
		} else {
			centres = rng.NormalDense(rand.New(rng.FitSource(m.Src)), M, q)
		}
	case GTMGridCentres:
		clo, chi := append([]float64(nil), lo...), append([]float64(nil), hi...)
		centres = kernel.Grid(clo, chi, M)
		if width == 0 {
			sp := 1.0
			if M > 1 {
				sp = (hi[0] - lo[0]) / float64(M-1)
			}
			width = sp * sp
		}
	}
	m.n, m.p, m.q = n, p, q
	m.xhat, m.centres, m.width = xhat, centres, width
	phi := m.designMatrix(xhat)

	// Initial responsibilities: softmax of −‖X₀_i − x̂_k‖² (β = 2 in the
	// shared routine), then one M-step from β = e⁻².
	yy := linalg.RowSquaredNorms(y)
	sumYY := vec.Sum(yy)
	R := mat.NewDense(n, mm, nil)
	responsibilities(R, &x0, xhat, linalg.RowSquaredNorms(&x0), 2)
	m.beta = math.Exp(-2)
	m.f = mat.NewDense(mm, p, nil)
	var lse float64
	mstep := func() error {
		RtY, gsum := rtY(R, y), colSums(R)
		w, err := gtmMStep(phi, RtY, gsum, m.beta, alpha)
		if err != nil {
			return err
		}
		m.w = w
		m.f.Mul(phi, w)
		s := weightedSqDist(RtY, m.f, gsum, sumYY)
		if !(s > 0) {
			return fmt.Errorf("%w: GTM: zero residual, β undefined", ErrSingular)
		}
		m.beta = float64(n*p) / s
		return nil
	}
	if err := mstep(); err != nil {
		return err
	}
	eval := func() (float64, error) {
		lse = responsibilities(R, y, m.f, yy, m.beta)
		wn := mat.Norm(m.w, 2)
		return mixtureLogLik(lse, n, p, mm, m.beta) - 0.5*alpha*wn*wn, nil
	}
	it := newIteration("GTM EM", m.MaxIter, m.Tol, m.Monitor, 1000, defaultEMTol).perPoint(n).under(ctx)
	iters, obj, err := it.run(eval, mstep)
	m.iters = iters
	if err != nil && !isNotConverged(err) {
		return err
	}
	// run's last eval left R as the E-step of the final parameters.
	m.r, m.ll = R, obj
	return err
}

func isNotConverged(err error) bool { return err != nil && errors.Is(err, ErrNotConverged) }

// gtmMStep solves (Φ̃ᵀGΦ̃ + (α/β)I) W = Φ̃ᵀRᵀY for W ((M+1)×p).
// RtY = RᵀY and g = Rᵀ1.
func gtmMStep(phi, RtY *mat.Dense, g []float64, beta, alpha float64) (*mat.Dense, error) {
	mm, M1 := phi.Dims()
	// Φ̃ᵀGΦ̃ = (G^{1/2}Φ̃)ᵀ(G^{1/2}Φ̃).
	gp := mat.NewDense(mm, M1, nil)
	for k := 0; k < mm; k++ {
		s := math.Sqrt(g[k])
		row := gp.RawRowView(k)
		copy(row, phi.RawRowView(k))
		floats.Scale(s, row)
	}
	A := mat.NewSymDense(M1, nil)
	A.SymOuterK(1, gp.T())
	for j := 0; j < M1; j++ {
		A.SetSym(j, j, A.At(j, j)+alpha/beta)
	}
	var B mat.Dense
	B.Mul(phi.T(), RtY)
	var ch mat.Cholesky
	if !ch.Factorize(A) {
		return nil, fmt.Errorf("%w: GTM M-step matrix Φ̃ᵀGΦ̃ + (α/β)I", ErrSingular)
	}
	W := new(mat.Dense)
	if err := ch.SolveTo(W, &B); err != nil {
		return nil, fmt.Errorf("%w: GTM M-step: %v", ErrSingular, err)
	}
	return W, nil
}

func colSums(R *mat.Dense) []float64 {
	n, m := R.Dims()
	g := make([]float64, m)
	for i := 0; i < n; i++ {
		floats.Add(g, R.RawRowView(i))
	}
	return g
}

// designMatrix returns Φ̃ (r×(M+1)) of the rows of X: the basis functions
// and a final column of ones.
func (m *GTM) designMatrix(X mat.Matrix) *mat.Dense {
	r, q := X.Dims()
	var phi *mat.Dense
	if m.centres == nil {
		phi = mat.NewDense(r, q+1, nil)
		phi.Slice(0, r, 0, q).(*mat.Dense).Copy(X)
	} else {
		M, _ := m.centres.Dims()
		phi = mat.NewDense(r, M+1, nil)
		var f mat.Dense
		m.eqBasis().FeaturesTo(&f, X)
		phi.Slice(0, r, 0, M).(*mat.Dense).Copy(&f)
	}
	_, c := phi.Dims()
	for i := 0; i < r; i++ {
		phi.Set(i, c-1, 1)
	}
	return phi
}

// eqBasis is the RBF basis exp(−‖x − c‖²/(2w)) as a kernel.EQBasis
// (which has exp(−‖x − c‖²/ℓ²), so ℓ² = 2w).
func (m *GTM) eqBasis() kernel.EQBasis {
	return kernel.EQBasis{Centres: m.centres, LengthScale: math.Sqrt(2 * m.width)}
}

func (m *GTM) mustFit() {
	if m.w == nil {
		panic("dimred: GTM used before a successful Fit")
	}
}

// latentDst is the package's dst rule (dense.ReuseAs).
func latentDst(dst *mat.Dense, r, c int) { dense.ReuseAs(dst, r, c) }

// LatentTo stores the posterior means x_i = Σ_k r_ik x̂_k (n×q) of the
// training data in dst, the latent positions the book plots (Figs 6.10,
// 6.11).
func (m *GTM) LatentTo(dst *mat.Dense) {
	m.mustFit()
	latentDst(dst, m.n, m.q)
	latentMeansTo(dst, m.r, m.xhat)
}

// LatentModesTo stores the posterior modes (the grid point of largest
// responsibility, n×q) of the training data in dst.
func (m *GTM) LatentModesTo(dst *mat.Dense) {
	m.mustFit()
	latentDst(dst, m.n, m.q)
	latentModesTo(dst, m.r, m.xhat)
}

// ResponsibilitiesTo stores the posterior probabilities r_ik (n×m) of the
// grid points for the rows of Y (n×p) in dst; each row sums to one.
func (m *GTM) ResponsibilitiesTo(dst *mat.Dense, Y mat.Matrix) {
	m.mustFit()
	n, p := Y.Dims()
	if p != m.p {
		panic(mat.ErrShape)
	}
	checkProjectInput("GTM.ResponsibilitiesTo", Y, "Y")
	mm, _ := m.xhat.Dims()
	latentDst(dst, n, mm)
	y := dense.AsDense(Y)
	responsibilities(dst, y, m.f, linalg.RowSquaredNorms(y), m.beta)
}

// ProjectTo stores the posterior means of the rows of Ynew (r×p) in dst
// (r×q).
func (m *GTM) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	checkProjectInput("GTM.ProjectTo", Ynew, "Ynew")
	r, _ := Ynew.Dims()
	latentDst(dst, r, m.q)
	var R mat.Dense
	m.ResponsibilitiesTo(&R, Ynew)
	latentMeansTo(dst, &R, m.xhat)
}

// GridTo stores the latent grid X̂ (m×q) in dst.
func (m *GTM) GridTo(dst *mat.Dense) {
	m.mustFit()
	r, c := m.xhat.Dims()
	latentDst(dst, r, c)
	dst.Copy(m.xhat)
}

// MapTo stores f(x) (r×p) of the latent points X (r×q) in dst.
func (m *GTM) MapTo(dst *mat.Dense, X mat.Matrix) {
	m.mustFit()
	r, q := X.Dims()
	if q != m.q {
		panic(mat.ErrShape)
	}
	checkProjectInput("GTM.MapTo", X, "X")
	latentDst(dst, r, m.p)
	dst.Mul(m.designMatrix(X), m.w)
}

// JacobianTo stores the p×q Jacobian J_jl = ∂f_j/∂x_l of the mapping at
// the latent point x in dst.
func (m *GTM) JacobianTo(dst *mat.Dense, x []float64) {
	m.mustFit()
	if len(x) != m.q {
		panic(mat.ErrShape)
	}
	checkProjectInput("GTM.JacobianTo", mat.NewDense(1, m.q, slices.Clone(x)), "x")
	latentDst(dst, m.p, m.q)
	if m.centres == nil {
		dst.Copy(m.w.Slice(0, m.q, 0, m.p).T())
		return
	}
	M, _ := m.centres.Dims()
	var dphi mat.Dense
	m.eqBasis().JacobianTo(&dphi, x)
	dst.Mul(m.w.Slice(0, M, 0, m.p).T(), &dphi)
}

// MagnificationFactors returns, for each row x of X (r×q), the local
// magnification of the mapping (Bishop, Svensén & Williams 1997),
//
//	dA′/dA = √det(JᵀJ),  J = ∂f/∂x (p×q),
//
// the factor by which an infinitesimal q-volume around x is stretched on
// the manifold in data space. For a linear map f(x) = Aᵀx + b it is the
// constant √det(AAᵀ).
func (m *GTM) MagnificationFactors(X mat.Matrix) []float64 {
	m.mustFit()
	r, q := X.Dims()
	if q != m.q {
		panic(mat.ErrShape)
	}
	if r > 0 {
		checkProjectInput("GTM.MagnificationFactors", X, "X")
	}
	out := make([]float64, r)
	var J mat.Dense
	var JtJ mat.SymDense
	x := make([]float64, q)
	for i := range out {
		mat.Row(x, i, X)
		J.Reset()
		m.JacobianTo(&J, x)
		JtJ.Reset()
		JtJ.SymOuterK(1, J.T())
		out[i] = math.Sqrt(math.Max(mat.Det(&JtJ), 0))
	}
	return out
}

// NoiseVariance returns β⁻¹.
func (m *GTM) NoiseVariance() float64 { m.mustFit(); return 1 / m.beta }

// LogLikelihood returns the penalised log-likelihood L of the fit.
func (m *GTM) LogLikelihood() float64 { m.mustFit(); return m.ll }

// Iterations returns the number of EM steps of the last Fit.
func (m *GTM) Iterations() int { return m.iters }

var _ Projector = (*GTM)(nil)
