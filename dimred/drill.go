package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/glasso"
	"github.com/dimredbook/book/dimred/neighbours"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/mat"
)

// DRILL is dimensionality reduction through regularisation of the inverse
// covariance in the log likelihood (Lawrence 2012, "A unifying
// probabilistic perspective for spectral dimensionality reduction", §3).
// Where MEU constrains expected squared distances, DRILL constrains the
// second moments of neighbouring points, ⟨y_iᵀy_j⟩ = s_ij for j ∈ N(i) and
// ⟨y_iᵀy_i⟩ = s_ii, with S = Ŷ Ŷᵀ/p (n×n, Ŷ the data with feature means
// removed). The maximum entropy density is again a Gaussian random field,
// independent over features, with a precision Θ that is zero off the
// neighbourhood graph and has a free diagonal:
//
//	log p(Y) = (p/2) log|Θ| − (p/2) tr(S Θ) − (np/2) log 2π.
//
// Maximising it is covariance selection (Dempster 1972); with an L1
// penalty it is the graphical lasso (Friedman, Hastie and Tibshirani 2008)
// restricted to the graph:
//
//	max_Θ log|Θ| − tr(SΘ) − ρ Σ_ij |θ_ij|   (θ_ij = 0 off the graph),
//
// solved by block coordinate ascent on the covariance W = Θ⁻¹ (Friedman et
// al.'s sweeps) to their own rule, then finished by Newton's method on the
// support the sweeps found (package internal/glasso). The finish matters:
// on the stick man (k = 6, ρ = 0) the sweeps' rule fires after 225 sweeps
// with max|WΘ − I| = 1.33 and W 15 % from the optimum, which plain sweeps
// reach only after about 10⁴; five Newton steps reach it to 1e-11. The fit
// stops when the KKT conditions below hold (max|WΘ − I| ≤ KKTTol, and
// W_ij = S_ij on the edges to 1e-9 relative when certified by Newton).
//
// Rho is ρ exactly as in the reference code's
// "regulariser", which also penalises the diagonal (W_ii = s_ii + ρ at the
// optimum); the paper's Figs 8 and 9 report this ρ (best 0.01 with k = 20,
// 0.002 with every pair a neighbour). The paper's own objective §3,
// −log p(Y) + Σ_{i<j} |λ_ij|, corresponds to ρ = λ/p.
//
// At the optimum W_ij = S_ij on graph edges (|W_ij − S_ij| ≤ ρ with ρ > 0)
// and on the diagonal: the KKT conditions, reported by KKT. The embedding
// is the top q eigenvectors of H W H, X = U_q Λ_q^{1/2}.
//
// With AllPairs every pair may be non-zero and the neighbourhood is learnt
// by the L1 penalty alone; ρ must then be positive, since S has rank ≤ p
// and at most n−1 (the centring), so it has no inverse.
type DRILL struct {
	K        int     // neighbours per point (k); 0 means 6; the graph is the union kNN graph
	AllPairs bool    // every pair a neighbour (the paper's Fig 9)
	Q        int     // q, latent dimension; must be set (≥ 1)
	Rho      float64 // ρ ≥ 0, L1 weight on Θ (diagonal included)

	MaxIter int     // glasso sweeps; 0 means 3000
	Tol     float64 // glasso sweeps' rule on W's change (mean |ΔW| relative to mean |S_ij|); 0 means 1e-4
	// KKTTol is the tolerance on the optimality conditions, max|WΘ − I|;
	// 0 means 1e-6. Negative means the sweeps' Tol rule alone, without
	// the Newton finish (the reference code's rule, which can stop far
	// from the optimum on nearly singular S).
	KKTTol float64

	// Monitor, if not nil, is called after every glasso sweep with the
	// sweep number (from 1) and mean|ΔW| relative to mean|S_ij|;
	// returning true stops the fit, which is then kept without error and
	// without the Newton finish.
	Monitor func(iter int, change float64) bool

	start *mat.SymDense // warm start (DRILLPath)

	n, q   int
	theta  *mat.SymDense
	w      *mat.SymDense
	logLik float64
	iters  int
	edges  int
	kkt    DRILLKKT
	x      *mat.Dense
	vals   []float64
}

var _ Embedder = (*DRILL)(nil)

// DRILLKKT reports how well a DRILL fit meets the optimality conditions, in
// the units of S = ŶŶᵀ/p.
type DRILLKKT struct {
	// Edge is the largest violation on graph edges: |W_ij − S_ij − ρ
	// sign θ_ij| where θ_ij ≠ 0, max(0, |W_ij − S_ij| − ρ) where θ_ij = 0.
	Edge float64
	// Diagonal is max |W_ii − S_ii − ρ|.
	Diagonal float64
	// OffGraph is max |θ_ij| off the graph (zero by construction).
	OffGraph float64
	// Inverse is max |WΘ − I|.
	Inverse float64
	// Scale is mean_{i≠j} |S_ij|, the unit of the stopping rule.
	Scale float64
}

// Fit solves the (restricted) graphical lasso for the rows of Y (n×p, not
// modified) and computes the embedding. It returns an error wrapping
// ErrNaN for non-finite data, ErrTooFewPoints for n < 3, n ≤ Q or (without
// AllPairs) k ≥ n, ErrSingular when no positive definite solution exists,
// or ErrNotConverged (the model is then fitted with the last sweep).
//
// With ρ = 0 a solution — a positive definite W equal to S on the graph
// and the diagonal — exists only when the p features are enough for the
// graph: with probability one when p exceeds the largest clique of a
// chordal cover of the graph, its treewidth (Uhler 2012, "Geometry of
// maximum likelihood estimation in Gaussian graphical models"). A kNN
// graph on few features usually has no solution, whatever k — ErrSingular
// on ordinary distinct data (measured on 40×5 data: k = 3, 4, 6, 8 have
// none, k = 5 has one) — and with AllPairs never (S has rank ≤ p); use
// ρ > 0. The solver reaches the first positive definite iterate through a
// homotopy on a diagonal shift; a MaxIter that ends before it leaves no
// usable iterate and is ErrSingular naming MaxIter, not ErrNotConverged.
// It panics for K < 0, Q < 1, ρ < 0 or a negative Tol.
func (d *DRILL) Fit(Y mat.Matrix) error { return d.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (d *DRILL) FitContext(ctx context.Context, Y mat.Matrix) error {
	d.x = nil
	checkSettings("DRILL", d)
	n, p := Y.Dims()
	if n < 3 {
		return fmt.Errorf("%w: DRILL needs at least 3 points, have %d", ErrTooFewPoints, n)
	}
	q, k := d.Q, d.K
	if !d.AllPairs {
		var err error
		if k, err = neighbourK("DRILL", "neighbours", d.K, 6, n); err != nil {
			return err
		}
	}
	if p == 0 {
		panic(noColumns("DRILL"))
	}
	if err := checkQ("DRILL", q, n, q+1); err != nil {
		return err
	}
	if d.Tol < 0 {
		panic(fmt.Sprintf("dimred: DRILL.Tol = %v must not be negative (0 means 1e-4)", d.Tol))
	}
	if !(d.Rho >= 0) || math.IsInf(d.Rho, 0) {
		panic(fmt.Sprintf("dimred: DRILL.Rho = %v must be non-negative and finite", d.Rho))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	S := mat.NewSymDense(n, nil)
	S.SymOuterK(1/float64(p), Yc)
	if err := errs.CheckOverflow(S, "S = ŶŶᵀ/p"); err != nil {
		return errs.Wrap(err, "DRILL")
	}
	pen := glasso.Penalty{Rho: d.Rho}
	if !d.AllPairs {
		nb, err := neighbours.Search{}.KNearestContext(ctx, Y, k)
		if err != nil {
			return err
		}
		pen.Graph = make([][]int, n)
		for i := range pen.Graph {
			idx, _ := nb.Of(i)
			pen.Graph[i] = append([]int(nil), idx...)
		}
	}
	maxIter := d.MaxIter
	if maxIter == 0 {
		maxIter = 3000
	}
	set := &glasso.Settings{Tol: d.Tol, KKTTol: d.KKTTol, MaxIter: maxIter, PenaliseDiagonal: true}
	// The sweeps are the unit of cancellation: the Monitor hook stops
	// glasso at the first sweep after ctx is done.
	ph, err := progress.Start(ctx, "DRILL graphical lasso", maxIter)
	if err != nil {
		return err
	}
	set.Monitor = func(it int, change float64) bool {
		if ph.Set(it) != nil {
			return true
		}
		return d.Monitor != nil && d.Monitor(it, change)
	}
	if d.start != nil {
		set.Start = d.start
	}
	res, gerr := glasso.Solve(S, pen, set)
	if err := ph.Err(); err != nil {
		return err
	}
	var retErr error
	switch {
	case gerr == nil:
	case errors.Is(gerr, glasso.ErrNotConverged) && res != nil:
		retErr = fmt.Errorf("%w: DRILL: %v", ErrNotConverged, gerr)
	case errors.Is(gerr, glasso.ErrNotPositiveDefinite):
		if d.Rho == 0 {
			return fmt.Errorf("%w: DRILL: %v (with ρ = 0 a solution needs more features than the graph's treewidth; set Rho > 0)", ErrSingular, gerr)
		}
		return fmt.Errorf("%w: DRILL: %v", ErrSingular, gerr)
	case errors.Is(gerr, glasso.ErrNaN):
		return fmt.Errorf("%w: DRILL: %v", ErrNaN, gerr)
	default:
		// ErrNotConverged without an iterate (no positive definite Θ
		// yet): nothing usable to keep, so not the package's
		// ErrNotConverged (whose fits are usable) but a numerical failure.
		return fmt.Errorf("%w: DRILL: no usable iterate after MaxIter = %d sweeps (raise MaxIter): %v", ErrSingular, maxIter, gerr)
	}
	x, vals, err := covarianceEmbedding(res.W, q)
	if err != nil {
		return err
	}
	// The likelihood is evaluated at the fitted covariance W, which the
	// solver meets the optimality conditions on; Θ, assembled from the
	// column solutions, can be less accurate (KKT.Inverse).
	var ch mat.Cholesky
	if !ch.Factorize(res.W) {
		return fmt.Errorf("%w: DRILL: the covariance W is not positive definite", ErrSingular)
	}
	var SW mat.Dense
	if err := ch.SolveTo(&SW, S); err != nil {
		return fmt.Errorf("%w: DRILL: %v", ErrSingular, err)
	}
	pf := float64(p)
	d.logLik = -0.5*pf*ch.LogDet() - 0.5*pf*mat.Trace(&SW) - 0.5*float64(n)*pf*math.Log(2*math.Pi)
	d.n, d.q, d.theta, d.w, d.iters, d.edges, d.x, d.vals = n, q, res.Theta, res.W, res.Iterations, res.Edges, x, vals
	d.kkt = DRILLKKT(res.KKT)
	return retErr
}

func (d *DRILL) mustFit() {
	if d.x == nil {
		panic("dimred: DRILL used before a successful Fit")
	}
}

// LatentTo stores the embedding X (n×q) in dst: a nil or empty dst is
// resized, a wrong shape panics.
func (d *DRILL) LatentTo(dst *mat.Dense) { d.mustFit(); copyLatent(dst, d.x) }

// LogLikelihood returns log p(Y) = −(p/2)(log|W| + tr SW⁻¹) − (np/2) log 2π
// at the fitted covariance W (the L1 penalty not included); at an exact
// optimum W⁻¹ = Θ.
func (d *DRILL) LogLikelihood() float64 { d.mustFit(); return d.logLik }

// CovarianceTo stores W ≈ Θ⁻¹ (n×n) in dst.
func (d *DRILL) CovarianceTo(dst *mat.SymDense) { d.mustFit(); copySym(dst, d.w) }

// PrecisionTo stores Θ (n×n, zero off the graph) in dst. Θ is assembled
// from the column solutions of the graphical lasso; on nearly singular S
// (ρ = 0, few neighbours) it can be far from W⁻¹ although W meets the
// optimality conditions: KKT().Inverse = max|WΘ − I| reports it.
func (d *DRILL) PrecisionTo(dst *mat.SymDense) { d.mustFit(); copySym(dst, d.theta) }

// Edges returns the number of pairs i < j with θ_ij ≠ 0.
func (d *DRILL) Edges() int { d.mustFit(); return d.edges }

// Iterations returns the number of glasso sweeps plus the Newton steps of
// the finish.
func (d *DRILL) Iterations() int { d.mustFit(); return d.iters }

// KKT returns the optimality report of the fit.
func (d *DRILL) KKT() DRILLKKT { d.mustFit(); return d.kkt }

// DRILLPath fits DRILL with the settings of base at each ρ in rhos, in
// order, each fit warm-started from the previous covariance W (the L1
// sweep of the paper's Figs 8 and 9). It returns the fitted models; on an
// error other than ErrNotConverged it stops and returns the fits so far
// with the error naming ρ.
func DRILLPath(Y mat.Matrix, base DRILL, rhos []float64) ([]*DRILL, error) {
	var out []*DRILL
	var start *mat.SymDense
	var firstErr error
	for _, rho := range rhos {
		d := base
		d.Rho = rho
		d.start = start
		err := d.Fit(Y)
		if err != nil && !isNotConverged(err) {
			return out, fmt.Errorf("DRILL path at ρ = %g: %w", rho, err)
		}
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("DRILL path at ρ = %g: %w", rho, err)
		}
		start = d.w
		out = append(out, &d)
	}
	return out, firstErr
}

var _ SpectralModel = (*DRILL)(nil)

// EigenvaluesTo stores the q leading eigenvalues of H W H in dst (nil
// allocates) and returns it.
func (d *DRILL) EigenvaluesTo(dst []float64) []float64 { d.mustFit(); return copyVals(dst, d.vals) }

// Implied returns the centred covariance B = H W H (n×n), whose top
// eigenvectors scaled by √λ are the embedding.
func (d *DRILL) Implied() ImpliedMatrix {
	d.mustFit()
	return ImpliedMatrix{Covariance: centreSym(d.w)}
}
