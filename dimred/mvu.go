package dimred

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/sdp"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// MVU is maximum variance unfolding (Weinberger and Saul, "Unsupervised
// learning of image manifolds by semidefinite programming", 2004; book
// §5.2; the spectral paper §2.5): it learns the n×n Gram matrix K of an
// embedding that keeps the distances between neighbours and otherwise
// spreads the points as far apart as it can,
//
//	maximise tr K   s.t.  K ⪰ 0,  Σ_ij k_ij = 0,
//	                      k_ii − 2k_ij + k_jj = ‖y_i − y_j‖²  for neighbours i ~ j,
//
// a semidefinite programme. Since Σ_ij k_ij = 0 centres the points,
// tr K = (1/2n) Σ_ij (k_ii − 2k_ij + k_jj) is n times the total variance:
// with the neighbour distances fixed, maximising it pulls every
// unconnected pair apart and so unrolls the manifold. The latent positions
// are the top q eigenvectors of K scaled by the square roots of their
// eigenvalues, X = U_q Λ_q^{1/2} (n×q): MVU is kernel PCA with a kernel
// learnt from the data, and classical MDS on the squared distances
// k_ii − 2k_ij + k_jj it implies (K is already centred, B = HKH = K).
// With every pair constrained (K = n − 1) K is the centred Gram matrix
// ŶŶᵀ and MVU is principal coordinates analysis (paper §2.5).
//
// The graph is the union-symmetrised k-nearest-neighbour graph
// (neighbours.KNNGraph with neighbours.Union). With Shared, every pair of
// points that share a neighbour in that graph is constrained too — the
// [ηᵀη]_ij > 0 constraints of Weinberger and Saul, which lock each
// neighbourhood rigidly — at a cost: m grows from about nk to about nk²/2
// constraints and the solver's work as m³. With Inequality the distances
// may shrink but not grow, k_ii − 2k_ij + k_jj ≤ ‖y_i − y_j‖², the variant
// the paper mentions beside the attractive MEU (§2.5); the programme then
// always has a strictly feasible point.
//
// The programme is solved by the package's primal–dual interior-point
// method (HKM direction, Mehrotra predictor–corrector) with the stopping
// rule: relative primal infeasibility, dual infeasibility and duality gap
// all at most Tol (SDPReport documents each). The squared distances are
// computed exactly from Y (not from the graph's weights).
//
// Stalls. When some neighbourhoods are affinely dependent (more than d+1
// mutual neighbours of exactly d-dimensional data) the programme has no
// strictly feasible point and the interior-point method can stall with a
// gap of 1e-4–1e-6 instead of Tol; the solver then re-solves on the face
// those cliques force and keeps the better result. Noisy or
// high-dimensional data (stick man, robot WiFi) do not stall. The policy
// for what is left, as for the package's other iterative fits: an SDP
// that stops before meeting Tol (MaxIter, a stall, or a breakdown of the
// linear algebra after at least one iterate) keeps its last iterate — the
// model is fitted and usable — and Fit returns an error wrapping
// ErrNotConverged that states the gap and infeasibilities; SDPReport has
// them too. Check them before trusting such a fit.
//
// The programme's Lagrange multipliers are returned too (Constraints,
// DualLaplacian): they weight the graph's edges so that the embedding is
// the bottom non-trivial eigenspace of the weighted Laplacian — MVU seen
// as Laplacian eigenmaps with learnt weights.
//
// MVU has no out-of-sample map: K is defined only on the training points
// (a new point would need a new programme), so it implements Embedder, not
// Projector.
//
// Cost: each interior-point iteration forms and factors an m×m Schur
// complement, O(m³ + n³) with m ≈ nk/2 … nk constraints; the robot WiFi
// data (n = 215, k = 7) take a few seconds. Memory O(m² + n²). Meant for
// n up to a few hundred. All n eigenvalues of K are computed by the dense
// eigensolver (O(n³), less than one interior-point iteration), so MVU has
// no Eigen setting.
type MVU struct {
	Q int // q, latent dimension; required, 1 ≤ q ≤ n
	K int // k, neighbours per point; 0 means 6; k ≥ n is ErrTooFewPoints

	// Shared also constrains every pair of points with a common
	// neighbour in the graph.
	Shared bool
	// Inequality makes every distance constraint an upper bound.
	Inequality bool
	// Disconnected is what Fit does when the graph has more than one
	// component (the programme is then unbounded): the zero value
	// refuses (ErrDisconnected); LargestComponent embeds the largest
	// component only (see Kept); ConnectComponents adds the components'
	// shortest joining edges as distance constraints
	// (neighbours.DisconnectedPolicy).
	Disconnected neighbours.DisconnectedPolicy

	// Tol is the relative tolerance of the SDP stopping rule; 0 means 1e-7.
	Tol float64
	// MaxIter limits the interior-point iterations; 0 means 100.
	MaxIter int
	// Monitor, if not nil, is called before every interior-point
	// iteration with the iteration number (from 0) and the relative
	// duality gap; returning true stops the fit, which then counts as
	// converged: Fit returns nil, and SDPReport (Stopped) shows how far
	// it got.
	Monitor func(iter int, gap float64) bool

	n, q   int
	graph  *linalg.CSR
	cons   []MVUConstraint
	kern   *mat.SymDense
	vals   []float64 // all n eigenvalues of K, descending
	x      *mat.Dense
	report SDPReport
	kept   []int // rows of Y embedded (LargestComponent), nil for all
	nAll   int   // rows of the Y given to Fit
}

// MVUConstraint is one distance constraint of an MVU fit: the pair I < J
// and its squared distance D2 = ‖y_I − y_J‖² (an upper bound with
// Inequality). Shared marks a pair that is not an edge of the graph but
// shares a neighbour with it. W is the constraint's Lagrange multiplier
// at the solution, the weight w_IJ of the dual Laplacian (see
// MVU.DualLaplacian); W ≥ 0 with Inequality.
type MVUConstraint struct {
	I, J   int
	D2     float64
	Shared bool
	W      float64
}

// SDPReport is the state of the semidefinite programme's last iterate in
// an MVU fit. The relative measures are those of the stopping rule, on the
// programme with squared distances divided by their mean d̄²:
//
//	PrimalInfeas  ‖b − A(K)‖₂ / (1 + ‖b‖₂)   (distance constraints)
//	DualInfeas    ‖C − Z − Aᵀ(y)‖_F / (1 + ‖C‖_F)
//	Gap           max(|pobj − dobj|, ⟨K, Z⟩ + sᵀz) / (1 + |pobj| + |dobj|)
//
// so that each constraint holds to |δ_ij − d²_ij| ≤ PrimalInfeas·(1 + ‖b‖₂)·d̄²,
// δ_ij = k_ii − 2k_ij + k_jj; MaxViolation reports the worst one directly.
type SDPReport struct {
	Iter        int  // interior-point iterations
	Constraints int  // m, distance constraints (after removing duplicates)
	Converged   bool // all three measures at most Tol
	Stopped     bool // the Monitor stopped the solver (Fit then returns nil)

	Objective     float64 // tr K, primal objective (units of squared distance)
	DualObjective float64 // the dual bound on tr K
	Gap           float64 // relative duality gap
	PrimalInfeas  float64 // relative primal infeasibility
	DualInfeas    float64 // relative dual infeasibility

	// MaxViolation is max over constraints of |δ_ij − d²_ij| / d̄²
	// (for Inequality only the excess max(0, δ_ij − d²_ij) counts).
	MaxViolation float64
}

// Fit builds the neighbourhood graph of the rows of Y (n×p, never
// modified), solves the MVU programme and extracts the embedding. It
// returns an error wrapping ErrNaN for a non-finite entry of Y,
// ErrTooFewPoints for n < 2 or k ≥ n, ErrDisconnected when the graph has
// more than one component and Disconnected is RefuseDisconnected (the
// programme is then unbounded: raise K, or choose another policy),
// ErrOverflow when squared distances overflow, ErrSingular when the
// solver breaks down without an iterate or reports infeasibility (the
// programme is feasible by construction, so either is numerical), and
// ErrNotConverged when the SDP stopped short of Tol. After ErrNotConverged the model is
// fitted with the last iterate (see the stall policy on MVU); any other
// error leaves it unfitted. It panics if K is negative or Q (which must
// be set), Tol or MaxIter is out of range.
func (m *MVU) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *MVU) FitContext(ctx context.Context, Y mat.Matrix) error {
	m.reset()
	checkSettings("MVU", m)
	n, p := Y.Dims()
	q := m.Q
	if n < 2 {
		return fmt.Errorf("%w: MVU needs at least 2 points, have %d", ErrTooFewPoints, n)
	}
	k, err := neighbourK("MVU", "neighbours", m.K, 6, n)
	if err != nil {
		return err
	}
	if p == 0 {
		panic(noColumns("MVU"))
	}
	if err := checkQ("MVU", q, n, q); err != nil {
		return err
	}
	if m.Tol < 0 || math.IsNaN(m.Tol) {
		panic(fmt.Sprintf("dimred: MVU.Tol = %v < 0", m.Tol))
	}
	if m.MaxIter < 0 {
		panic(fmt.Sprintf("dimred: MVU.MaxIter = %d < 0", m.MaxIter))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	yd := mat.DenseCopyOf(Y)
	nb, err := neighbours.Search{}.KNearestContext(ctx, yd, k)
	if err != nil {
		return errs.Wrap(err, "MVU neighbours")
	}
	g := nb.Graph(neighbours.Union)
	g, _, kept, err := checkGraph(fmt.Sprintf("MVU with k = %d", k), g, yd, m.Disconnected)
	if err != nil {
		return err
	}
	if kept != nil {
		err := m.FitContext(ctx, selectRows(yd, kept))
		if m.x != nil { // fitted, possibly with ErrNotConverged
			m.kept, m.nAll = kept, n
		}
		return err
	}
	cons := mvuConstraints(g, m.Shared)
	pairs := make([]sdp.Pair, len(cons))
	sq := make([]float64, len(cons))
	// The programme is solved for Y/sc (an exact power-of-two rescaling,
	// sc = 1 for data of ordinary scale) and K, X scaled back at the end:
	// the squared distances of data ~1e-200 underflowed to 0 and X came
	// out at the solver's tolerance (~1e-6) instead of ~1e-200.
	ys, sc := linalg.UnitScale(yd)
	yu, s2 := dense.AsDense(ys), sc*sc
	for t := range cons {
		c := &cons[t]
		a, b := yu.RawRowView(c.I), yu.RawRowView(c.J)
		var s float64
		for j := 0; j < p; j++ {
			d := a[j] - b[j]
			s += d * d
		}
		if math.IsInf(s*s2, 0) {
			return fmt.Errorf("%w: MVU squared distance between points %d and %d overflows (rescale Y)", ErrOverflow, c.I, c.J)
		}
		c.D2 = s
		pairs[t] = sdp.Pair{I: c.I, J: c.J}
		sq[t] = s
	}

	tol := m.Tol
	if tol == 0 {
		tol = 1e-7
	}
	stopped := false
	set := &sdp.Settings{Tol: tol, MaxIter: m.MaxIter, Context: ctx}
	if m.Monitor != nil {
		set.Monitor = func(it int, gap float64) bool {
			stopped = m.Monitor(it, gap)
			return stopped
		}
	}
	var K *mat.SymDense
	var res sdp.Result
	var w []float64
	if m.Inequality {
		K, _, w, res, err = sdp.MVUDual(n, nil, nil, pairs, sq, set)
	} else {
		K, w, _, res, err = sdp.MVUDual(n, pairs, sq, nil, nil, set)
	}
	rep := SDPReport{
		Iter: res.Iter, Constraints: len(cons),
		Objective: res.PrimalObj, DualObjective: res.DualObj,
		Gap: res.Gap, PrimalInfeas: res.PrimalInfeas, DualInfeas: res.DualInfeas,
	}
	var keep error // an ErrNotConverged that leaves the model fitted
	switch {
	case cancelled(err):
		return err
	case err == nil:
		rep.Converged = true
	case K != nil && (errors.Is(err, sdp.ErrNotConverged) || errors.Is(err, sdp.ErrNumerical)):
		if stopped && errors.Is(err, sdp.ErrNotConverged) {
			rep.Stopped = true
			break
		}
		keep = fmt.Errorf("%w: MVU semidefinite programme stopped after %d iterations with gap %.3g, primal infeasibility %.3g, dual infeasibility %.3g (Tol %g): %v",
			ErrNotConverged, res.Iter, res.Gap, res.PrimalInfeas, res.DualInfeas, set.Tol, err)
	case errors.Is(err, sdp.ErrNaN):
		return fmt.Errorf("%w: MVU semidefinite programme: %v", ErrOverflow, err)
	default:
		return fmt.Errorf("%w: MVU semidefinite programme failed (the programme is feasible and bounded by construction, so this is numerical): %v", ErrSingular, err)
	}
	if err := errs.CheckFinite(K, "MVU kernel K"); err != nil {
		return fmt.Errorf("%w: %v", ErrOverflow, err)
	}
	rep.MaxViolation = mvuViolation(K, cons, m.Inequality)
	for t := range cons {
		cons[t].W = w[t]
	}

	vals, vecs, err := linalg.EigenSymContext(ctx, K, n, linalg.Largest, &linalg.EigenSettings{Method: linalg.EigenDense})
	if err != nil {
		return fmt.Errorf("dimred: MVU eigendecomposition of K: %w", err)
	}
	x := mat.NewDense(n, q, nil)
	for c := 0; c < q; c++ {
		s := sc * math.Sqrt(math.Max(vals[c], 0))
		for i := 0; i < n; i++ {
			x.Set(i, c, s*vecs.At(i, c))
		}
	}
	if s2 != 1 {
		K.ScaleSym(s2, K)
		for t := range cons {
			cons[t].D2 *= s2
		}
		for c := range vals {
			vals[c] *= s2
		}
		rep.Objective *= s2
		rep.DualObjective *= s2
	}
	m.n, m.q, m.nAll = n, q, n
	m.graph, m.cons, m.kern, m.vals, m.x, m.report = g, cons, K, vals, x, rep
	return keep
}

// reset forgets the current fit.
func (m *MVU) reset() {
	m.n, m.q = 0, 0
	m.graph, m.cons, m.kern, m.vals, m.x, m.kept = nil, nil, nil, nil, nil, nil
	m.report = SDPReport{}
}

func (m *MVU) mustFit() {
	if m.x == nil {
		panic("dimred: MVU used before Fit")
	}
}

// Kept returns the rows of the fitted Y that the embedding holds, in
// order: all of 0, …, n−1 unless Disconnected = LargestComponent dropped
// the points outside the graph's largest component. Row r of LatentTo's X
// is point Kept()[r] of Y.
func (m *MVU) Kept() []int { m.mustFit(); return keptRows(m.kept, m.nAll) }

// mvuConstraints lists the edges i < j of g and, with shared, the pairs
// joined through a common neighbour, sorted by (I, J).
func mvuConstraints(g *linalg.CSR, shared bool) []MVUConstraint {
	n := g.N
	var cons []MVUConstraint
	edge := make(map[[2]int]bool)
	for i := 0; i < n; i++ {
		cols, _ := g.Row(i)
		for _, j := range cols {
			if i < j {
				cons = append(cons, MVUConstraint{I: i, J: j})
				edge[[2]int{i, j}] = true
			}
		}
	}
	if shared {
		for l := 0; l < n; l++ {
			cols, _ := g.Row(l)
			for a := 0; a < len(cols); a++ {
				for b := a + 1; b < len(cols); b++ {
					i, j := cols[a], cols[b]
					if i > j {
						i, j = j, i
					}
					if i == l || j == l || edge[[2]int{i, j}] {
						continue
					}
					edge[[2]int{i, j}] = true
					cons = append(cons, MVUConstraint{I: i, J: j, Shared: true})
				}
			}
		}
		sort.Slice(cons, func(a, b int) bool {
			if cons[a].I != cons[b].I {
				return cons[a].I < cons[b].I
			}
			return cons[a].J < cons[b].J
		})
	}
	return cons
}

// mvuViolation returns max_t |δ_t − d²_t| / d̄² (only the excess for
// inequalities), δ_t = K_ii − 2K_ij + K_jj.
func mvuViolation(K mat.Symmetric, cons []MVUConstraint, ineq bool) float64 {
	if len(cons) == 0 {
		return 0
	}
	var mean float64
	for _, c := range cons {
		mean += c.D2
	}
	mean /= float64(len(cons))
	if mean == 0 {
		mean = 1
	}
	var worst float64
	for _, c := range cons {
		d := K.At(c.I, c.I) - 2*K.At(c.I, c.J) + K.At(c.J, c.J) - c.D2
		if ineq {
			d = math.Max(d, 0)
		}
		worst = math.Max(worst, math.Abs(d)/mean)
	}
	return worst
}

// LatentTo stores the n×q latent positions X = U_q Λ_q^{1/2} in dst
// (each column's largest-magnitude entry positive). A nil or empty dst is
// resized; a dst of another shape panics with mat.ErrShape.
func (m *MVU) LatentTo(dst *mat.Dense) {
	m.mustFit()
	dense.ReuseAs(dst, m.n, m.q)
	dst.Copy(m.x)
}

// EigenvaluesTo returns all n eigenvalues λ_1 ≥ … ≥ λ_n of the learnt
// kernel K (Σλ = tr K, the objective; a successful unfolding puts nearly
// all of it in the first q), stored in dst when it has length n, in a new
// slice when dst is nil; another length panics with mat.ErrShape.
func (m *MVU) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.vals)
}

// KernelTo stores the learnt n×n centred Gram matrix K in dst. A nil or
// empty dst is resized; a dst of another size panics with mat.ErrShape.
func (m *MVU) KernelTo(dst *mat.SymDense) {
	m.mustFit()
	dense.ReuseAsSym(dst, m.n)
	dst.CopySym(m.kern)
}

// Implied returns the learnt kernel K as the implied covariance
// (SpectralModel): MVU is kernel PCA on the K its semidefinite programme
// learns, and EigenvaluesTo returns K's eigenvalues.
func (m *MVU) Implied() ImpliedMatrix {
	var K mat.SymDense
	m.KernelTo(&K)
	return ImpliedMatrix{Covariance: &K}
}

// Graph returns a copy of the neighbourhood graph of the fit: a symmetric
// CSR whose entries are the Euclidean distances ‖y_i − y_j‖ of the joined
// points.
func (m *MVU) Graph() *linalg.CSR {
	m.mustFit()
	g := m.graph
	return &linalg.CSR{N: g.N, RowPtr: append([]int(nil), g.RowPtr...),
		Col: append([]int(nil), g.Col...), Val: append([]float64(nil), g.Val...)}
}

// Constraints returns a copy of the distance constraints of the fit,
// sorted by (I, J).
func (m *MVU) Constraints() []MVUConstraint {
	m.mustFit()
	return append([]MVUConstraint(nil), m.cons...)
}

// DualLaplacian returns the Laplacian of the constraint graph weighted by
// the programme's Lagrange multipliers, L(w) = Σ_ij w_ij (e_i − e_j)(e_i − e_j)ᵀ
// (a symmetric n×n CSR; with Inequality the weights are nonnegative). The
// dual of MVU is
//
//	minimise Σ_ij w_ij d²_ij   s.t.  λ₂(L(w)) ≥ 1,
//
// and at the optimum the columns of K lie in the eigenspace of L(w) with
// eigenvalue one, its smallest non-trivial eigenvalue: MVU's embedding is
// the bottom of a learnt Laplacian, Laplacian eigenmaps with weights
// chosen by the programme (Sun, Boyd, Xiao and Diaconis 2006; the
// spectral paper's unifying view, with the multipliers as the springs of
// the book's §5.7). After a stall solved on a face of the cone (see MVU)
// the dual holds only on that face.
func (m *MVU) DualLaplacian() *linalg.CSR {
	m.mustFit()
	is := make([]int, 0, 4*len(m.cons))
	js := make([]int, 0, 4*len(m.cons))
	vs := make([]float64, 0, 4*len(m.cons))
	for _, c := range m.cons {
		is = append(is, c.I, c.J, c.I, c.J)
		js = append(js, c.I, c.J, c.J, c.I)
		vs = append(vs, c.W, c.W, -c.W, -c.W)
	}
	return linalg.NewCSR(m.n, is, js, vs)
}

// SDPReport returns the semidefinite programme's report on the fit.
func (m *MVU) SDPReport() SDPReport {
	m.mustFit()
	return m.report
}
