package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// LLE is locally linear embedding (Roweis & Saul 2000, "Nonlinear
// dimensionality reduction by locally linear embedding"; book §5.5,
// spectral paper §2.7). Each point is reconstructed from its k nearest
// neighbours 𝒩(i) with weights summing to one,
//
//	min_w ½ ‖y_i − Σ_{j∈𝒩(i)} w_ij y_j‖²   s.t.  Σ_j w_ij = 1,
//
// solved by w_i ∝ C_i⁻¹ 1 with the local k×k Gram matrix
// C_i = [(y_j − y_i)ᵀ(y_l − y_i)]_{j,l∈𝒩(i)} (paper eq. 10 and after).
// The embedding minimises Σ_i ‖x_i − Σ_j w_ij x_j‖² = tr(Xᵀ M X),
//
//	M = (I − W)ᵀ (I − W)   (the paper's L = M Mᵀ with its M = (I − W)ᵀ;
//	                         m_ii = 1, m_ji = −w_ij, so Mᵀ1 = 0),
//
// subject to XᵀX = n I and Σ_i x_i = 0 (Roweis & Saul's centring): X = √n
// times the eigenvectors of the q smallest eigenvalues of M on the
// complement of the constant vector (M 1 = 0). They are read from the q+1
// bottom eigenvectors of M with 1 projected out of their span and the rest
// ordered by Rayleigh quotient, not by dropping "the first eigenvector",
// which is the constant only when M's null space is one-dimensional (see
// Connectivity below).
// M is a sparse CSR (n(k+1)² entries at most). Its bottom eigenvalues are
// tiny (~10⁻⁸‖M‖ on a smooth manifold) and clustered, so for n ≥ 1000 they
// are found by shift-invert Lanczos on (M + σI)⁻¹ through a sparse
// (envelope, reverse Cuthill–McKee) Cholesky factor, as ARPACK's
// shift-invert mode does in scikit-learn; smaller problems use the
// package's eigensolver directly.
//
// Regularisation (Roweis & Saul): C_i ← C_i + r·tr(C_i)·I_k. When k > p
// (or when neighbours coincide, e.g. duplicated points) C_i is singular
// and the weights are not unique; the regulariser picks the smallest-norm
// ones. Reg = 0 applies r = 10⁻³ only when k > p (the paper's reference
// code; the paper's runs have p > k and are unregularised) and, whatever
// Reg, when C_i fails to factorise (duplicated points); if tr(C_i) = 0
// (all neighbours coincide with y_i) the weights are 1/k.
//
// Connectivity: M's null space holds the vectors with x_i = Σ_j w_ij x_j
// for all i, one per component of the union kNN graph. A disconnected
// graph is refused (ErrDisconnected) unless Disconnected says otherwise:
// LargestComponent embeds the largest component only (see Kept);
// ConnectComponents joins every pair of components by its shortest edge
// (a, b) and adds b to 𝒩(a) and a to 𝒩(b), so those points are
// reconstructed from k + 1 (or more) neighbours. The union graph being
// connected is checked, but the directed
// neighbour graph can still have several closed classes (sets of points
// whose neighbours all lie inside the set; the robot WiFi data with k = 7
// has two), and then M has a null space of that dimension and the first
// coordinates interpolate between the classes rather than unfold the
// data. EigenvaluesTo shows it: more than one eigenvalue near zero. The
// embedding stays centred (the constant is projected out of the null
// space, not dropped as "eigenvector 0"; DropLowest restores the latter).
//
// Unifying view (paper §2.7): M is the precision of a Gaussian random
// field with m_ii = 1 fitted by pseudolikelihood; ImpliedLaplacian
// returns it. ProjectTo reconstructs a new point from its k nearest
// training points with the same regularised weights and places it at
// x = Σ_j w_j x_j (Saul & Roweis 2003, "Think globally, fit locally").
type LLE struct {
	Q int // q, latent dimension; 1 ≤ q ≤ n−2
	K int // k, neighbours per point; 0 means 10

	// Reg is the regulariser r (relative to tr C_i); 0 means 10⁻³ when
	// k > p and none otherwise; a negative value disables it (except the
	// fallback for a singular C_i).
	Reg float64

	// DropLowest, if true, takes the eigenvectors 2…q+1 of M as the
	// eigensolver returns them, dropping the first whatever it is — what
	// Lawrence's MATLAB code does (spectralUpdateX in GPmat's mltools;
	// scikit-learn's LLE does the same). With a one-dimensional null
	// space the two agree; with a larger one the dropped vector is an
	// arbitrary null vector, the constant leaks into the embedding and
	// Σ_i x_i ≠ 0. For comparison with that code only; false (the
	// default) projects the constant out (see the type's doc).
	DropLowest bool
	// Disconnected is what Fit does when the kNN graph has more than one
	// component; the zero value refuses (ErrDisconnected).
	Disconnected neighbours.DisconnectedPolicy

	Eigen *linalg.EigenSettings // sparse eigensolver settings; nil means defaults

	y     *mat.Dense
	k     int
	nb    *neighbours.Neighbours
	w     *linalg.CSR // W, row i holds w_ij
	mm    *linalg.CSR // M = (I − W)ᵀ(I − W)
	vals  []float64
	x     *mat.Dense
	graph *linalg.CSR
	kept  []int // rows of Y embedded (LargestComponent), nil for all
	nAll  int   // rows of the Y given to Fit
}

// lleFallbackReg is the regulariser used when C_i is singular.
const lleFallbackReg = 1e-3

// Fit computes the weights (in parallel over points), M and the
// embedding. It panics if q ≤ 0 or k < 0; it returns an error wrapping
// ErrTooFewPoints unless n ≥ q + 2 and n > k, ErrNaN for a non-finite Y, ErrDisconnected when the kNN
// graph (symmetrised by union) has more than one component, and
// ErrNotConverged from the eigensolver. Any error leaves the model
// unfitted.
func (m *LLE) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *LLE) FitContext(ctx context.Context, Y mat.Matrix) error {
	m.reset()
	checkSettings("LLE", m)
	n, p := Y.Dims()
	k, err := spectralK("LLE", m.Q, m.K, n)
	if err != nil {
		return err
	}
	if err := checkSpectralY("LLE", Y); err != nil {
		return err
	}
	nb, err := neighbours.Search{}.KNearestContext(ctx, Y, k)
	if err != nil {
		return err
	}
	g := nb.Graph(neighbours.Union)
	g, added, kept, err := checkGraph("LLE", g, Y, m.Disconnected)
	if err != nil {
		return err
	}
	if kept != nil {
		if err := m.FitContext(ctx, selectRows(Y, kept)); err != nil {
			return err
		}
		m.kept, m.nAll = kept, n
		return nil
	}
	// 𝒩(i): the k nearest, then the far ends of any joining edges at i
	// (ConnectComponents); off[i]:off[i+1] indexes point i's list.
	extra := make([][]int, n)
	for _, e := range added {
		extra[e.I] = append(extra[e.I], e.J)
		extra[e.J] = append(extra[e.J], e.I)
	}
	off := make([]int, n+1)
	for i := 0; i < n; i++ {
		off[i+1] = off[i] + k + len(extra[i])
	}
	idx := make([]int, off[n])
	for i := 0; i < n; i++ {
		copy(idx[off[i]:], nb.Index[i*k:(i+1)*k])
		copy(idx[off[i]+k:off[i+1]], extra[i])
	}
	Yd := dense.AsDense(Y)
	reg := m.reg(k, p)
	wv := make([]float64, off[n])
	parallel.For(n, 64, func(lo, hi int) {
		ws := newLLEWork(k, p)
		for i := lo; i < hi; i++ {
			w := ws
			if extra[i] != nil {
				w = newLLEWork(off[i+1]-off[i], p)
			}
			w.weights(wv[off[i]:off[i+1]], Yd.RawRowView(i), Yd, idx[off[i]:off[i+1]], reg)
		}
	})
	// I − W as CSR, then M = (I − W)ᵀ(I − W).
	ii := make([]int, 0, n+off[n])
	jj := make([]int, 0, n+off[n])
	vv := make([]float64, 0, n+off[n])
	for i := 0; i < n; i++ {
		ii, jj, vv = append(ii, i), append(jj, i), append(vv, 1)
		for t := off[i]; t < off[i+1]; t++ {
			ii, jj, vv = append(ii, i), append(jj, idx[t]), append(vv, -wv[t])
		}
	}
	IW := linalg.NewCSR(n, ii, jj, vv)
	M := IW.MulTrans(IW)
	vals, vecs, err := m.eigen(ctx, M)
	if err != nil {
		return err
	}
	var X *mat.Dense
	if m.DropLowest {
		X = dropLowest(vecs, m.Q, math.Sqrt(float64(n)))
	} else {
		X = nontrivial(M, vecs, nil, m.Q, math.Sqrt(float64(n)))
	}
	fixColumnSigns(X)
	// W itself (for Weights): I − (I − W).
	W := IW.Map(func(i, j int, v float64) float64 {
		if i == j {
			return 1 - v
		}
		return -v
	})
	m.y, m.k, m.nb, m.w, m.mm, m.vals, m.x, m.graph, m.nAll = mat.DenseCopyOf(Y), k, nb, W, M, vals, X, g, n
	return nil
}

// Kept returns the rows of the fitted Y that the embedding holds, in
// order: all of 0, …, n−1 unless Disconnected = LargestComponent dropped
// the points outside the graph's largest component. Row r of LatentTo's X
// is point Kept()[r] of Y.
func (m *LLE) Kept() []int { m.mustFit(); return keptRows(m.kept, m.nAll) }

// eigen returns the q+1 smallest eigenpairs of M by shift-invert Lanczos
// on an envelope Cholesky factor of M + σI (M's bottom eigenvalues are
// ~10⁻⁸‖M‖ and clustered, beyond the reach of Lanczos on M itself), at
// every n: the factor of a kNN graph's M costs less than the dense or
// Chebyshev route at every size measured (one thread, swiss roll, k = 10:
// 0.8 ms at n = 30, 4.5 ms at n = 200 against 19 ms dense, 25 ms at
// n = 990 against 330 ms for Chebyshev–Lanczos on M; see
// BenchmarkLLELadder), so the time grows smoothly with n. It falls back
// to the package's sparse eigensolver when the factor would exceed its
// memory budget, when shift-invert fails (a factor that is not positive
// definite in floating point, Lanczos not converging), or when an
// explicit method is set.
func (m *LLE) eigen(ctx context.Context, M *linalg.CSR) ([]float64, *mat.Dense, error) {
	if m.Eigen == nil || m.Eigen.Method == linalg.EigenAuto {
		// M 1 = 0 (the rows of W sum to one): the Lanczos runs on
		// the complement of the constant, unless DropLowest asks for
		// the eigensolver's own first vector (the reference's rule).
		var u []float64
		if !m.DropLowest {
			u = make([]float64, M.N)
			for i := range u {
				u[i] = 1
			}
		}
		vals, vecs, err := bottomShiftInvertOpt(ctx, M, m.Q+1, m.Eigen, u, 0)
		if err == nil {
			return vals, vecs, nil
		}
		if cancelled(err) {
			return nil, nil, err
		}
	}
	return bottomEigen(ctx, "LLE", M, m.Q, m.Eigen)
}

func (m *LLE) reg(k, p int) float64 {
	switch {
	case m.Reg > 0:
		return m.Reg
	case m.Reg < 0:
		return 0
	case k > p:
		return 1e-3
	}
	return 0
}

func (m *LLE) reset() {
	m.y, m.nb, m.w, m.mm, m.vals, m.x, m.graph, m.kept = nil, nil, nil, nil, nil, nil, nil, nil
}

func (m *LLE) mustFit() {
	if m.x == nil {
		panic("dimred: LLE used before Fit")
	}
}

// lleWork is one goroutine's scratch space for the local solves.
type lleWork struct {
	k, p int
	z    *mat.Dense // k×p, neighbours minus the point
	c    *mat.SymDense
	ch   mat.Cholesky
	one  *mat.VecDense
	w    *mat.VecDense
}

func newLLEWork(k, p int) *lleWork {
	one := mat.NewVecDense(k, nil)
	for i := 0; i < k; i++ {
		one.SetVec(i, 1)
	}
	return &lleWork{k: k, p: p, z: mat.NewDense(k, p, nil), c: mat.NewSymDense(k, nil), one: one, w: mat.NewVecDense(k, nil)}
}

// weights sets dst (length k) to the reconstruction weights of y from the
// rows idx of Y, with regulariser reg (relative to the trace).
func (ws *lleWork) weights(dst, y []float64, Y *mat.Dense, idx []int, reg float64) {
	k := ws.k
	for t, j := range idx {
		row := Y.RawRowView(j)
		zr := ws.z.RawRowView(t)
		for c := range zr {
			zr[c] = row[c] - y[c]
		}
	}
	// The weights do not change when z is scaled: differences of extreme
	// scale (~1e-200, whose products underflow to a zero C_i) are brought
	// to unit scale by an exact power of two (untouched otherwise).
	if zs, s := linalg.UnitScale(ws.z); s != 1 {
		ws.z.Copy(zs)
	}
	ws.c.SymOuterK(1, ws.z)
	tr := 0.0
	for t := 0; t < k; t++ {
		tr += ws.c.At(t, t)
	}
	if tr == 0 {
		// Every neighbour coincides with y: any convex combination
		// reconstructs it; take the uniform one.
		for t := range dst {
			dst[t] = 1 / float64(k)
		}
		return
	}
	solve := func(r float64) bool {
		if r > 0 {
			for t := 0; t < k; t++ {
				ws.c.SetSym(t, t, ws.c.At(t, t)+r*tr)
			}
		}
		if !ws.ch.Factorize(ws.c) {
			return false
		}
		if err := ws.ch.SolveVecTo(ws.w, ws.one); err != nil {
			return false
		}
		s := 0.0
		for t := 0; t < k; t++ {
			s += ws.w.AtVec(t)
		}
		if s == 0 || math.IsNaN(s) || math.IsInf(s, 0) {
			return false
		}
		for t := 0; t < k; t++ {
			dst[t] = ws.w.AtVec(t) / s
		}
		return true
	}
	if solve(reg) {
		return
	}
	// Singular C_i (duplicated or collinear neighbours): regularise.
	for r := math.Max(reg, lleFallbackReg); ; r *= 10 {
		ws.c.SymOuterK(1, ws.z)
		if solve(r) {
			return
		}
		if r > 1e6 {
			panic(fmt.Sprintf("dimred: LLE local Gram matrix not factorisable (trace %g)", tr))
		}
	}
}

// LatentTo stores the embedding X (n×q), XᵀX = n I.
func (m *LLE) LatentTo(dst *mat.Dense) {
	m.mustFit()
	r, c := m.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(m.x)
}

// EigenvaluesTo returns the q+1 smallest eigenvalues of M, ascending; the
// first is the trivial zero.
func (m *LLE) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.vals)
}

// Graph returns the kNN graph symmetrised by union, weighted by distance.
// It is the model's own: do not modify it.
func (m *LLE) Graph() *linalg.CSR { m.mustFit(); return m.graph }

// Weights returns the reconstruction weights W (row i holds w_ij over
// 𝒩(i); rows sum to one). It is the model's own: do not modify it.
func (m *LLE) Weights() *linalg.CSR { m.mustFit(); return m.w }

// ImpliedLaplacian returns M = (I − W)ᵀ(I − W), the implied GRF precision.
func (m *LLE) ImpliedLaplacian() *linalg.CSR { m.mustFit(); return m.mm }

// Implied returns the precision M (SpectralModel); M 1 = 0.
func (m *LLE) Implied() ImpliedMatrix { m.mustFit(); return ImpliedMatrix{Precision: m.mm} }

// ProjectTo places new points (m×p) at x = Σ_j w_j x_j, the weights
// reconstructing each from its k nearest training points (Saul & Roweis
// 2003). A new point equal to a training point y_j is reconstructed
// exactly by w = e_j and placed at x_j. It panics on a column mismatch or
// before Fit.
func (m *LLE) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, p := Ynew.Dims()
	if _, pt := m.y.Dims(); p != pt {
		panic(mat.ErrShape)
	}
	checkProjectInput("LLE.ProjectTo", Ynew, "Ynew")
	_, q := m.x.Dims()
	dense.ReuseAs(dst, r, q)
	var D mat.Dense
	linalg.SquaredDistances(&D, Ynew, m.y)
	Yn := dense.AsDense(Ynew)
	reg := m.reg(m.k, p)
	parallel.For(r, 16, func(lo, hi int) {
		ws := newLLEWork(m.k, p)
		w := make([]float64, m.k)
		for a := lo; a < hi; a++ {
			idx, d2 := nearestOf(D.RawRowView(a), m.k, 0)
			exactSquared(d2, Yn.RawRowView(a), m.y, idx)
			if d2[0] == 0 {
				// y coincides with training point j: w = e_j
				// reconstructs it exactly.
				for c := 0; c < q; c++ {
					dst.Set(a, c, m.x.At(idx[0], c))
				}
				continue
			}
			ws.weights(w, Yn.RawRowView(a), m.y, idx, reg)
			for c := 0; c < q; c++ {
				s := 0.0
				for t, j := range idx {
					s += w[t] * m.x.At(j, c)
				}
				dst.Set(a, c, s)
			}
		}
	})
}
