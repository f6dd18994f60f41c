package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// LEWeighting selects the edge weights a_ij of Laplacian eigenmaps.
type LEWeighting int

const (
	// HeatKernel weights a_ij = exp(−‖y_i − y_j‖²/t) (Belkin & Niyogi
	// 2003; spectral paper eq. 5 with t = 2σ²). The default.
	HeatKernel LEWeighting = iota
	// ConstantWeights sets a_ij = 1 on every edge (the "simple-minded"
	// weights of Belkin & Niyogi).
	ConstantWeights
)

// LEEdges selects how the directed k-nearest-neighbour relation becomes the
// symmetric weights A of Laplacian eigenmaps.
type LEEdges int

const (
	// LEUnionEdges joins i and j when either is among the other's k
	// nearest and weighs the pair once, a_ij (the union graph of Belkin &
	// Niyogi's "n nearest neighbours" rule). The default.
	LEUnionEdges LEEdges = iota
	// LEDirectedSum adds the weights of both directed edges, as the
	// spectral paper's reference MATLAB code does (A + Aᵀ of the directed
	// kNN weights): a mutual pair weighs 2a_ij, a one-way pair a_ij. This
	// changes the embedding (mutual pairs pull twice as hard), and is what
	// the paper's LE scores were computed with (together with the
	// reference's slot-index heat kernel, see LaplacianEigenmaps).
	// ProjectTo weighs a new point's edges once. Ignored with Epsilon > 0
	// (the ε graph is symmetric, so every pair would count twice, which
	// leaves every embedding unchanged).
	LEDirectedSum
)

// LEProblem selects which eigenproblem Laplacian eigenmaps solves.
type LEProblem int

const (
	// LENormalised takes the eigenvectors v of the symmetric normalised
	// Laplacian L̂ = I − V^{-1/2} A V^{-1/2} (spectral paper eq. 4), as the
	// paper's reference code does: X = √n [v₂ … v_{q+1}]. The default.
	LENormalised LEProblem = iota
	// LEGeneralised solves L u = λ V u (Belkin & Niyogi), u = V^{-1/2} v,
	// scaled so that uᵀ V u = Σ_i v_ii (a degree-weighted mean square of
	// one).
	LEGeneralised
	// LEUnnormalised takes the eigenvectors of L = V − A itself, with
	// xᵀx = n (the paper's unnormalised variant, equivalent to the
	// constraint xᵀx = 1 up to scale).
	LEUnnormalised
)

// LaplacianEigenmaps is the Laplacian eigenmap of Belkin & Niyogi (2003),
// book §5.4 and spectral paper §2.6. With a symmetric neighbourhood graph
// of weights A (n×n) and degrees V = diag(A 1), the objective
//
//	E(X) = ¼ Σ_ij a_ij ‖x_i − x_j‖² = ½ tr(L X Xᵀ),   L = V − A,
//
// is minimised subject to xᵀ V x = 1 for each column, the generalised
// eigenproblem L u = λ V u, or in its symmetric form (eq. 4)
//
//	L̂ v = λ v,   L̂ = V^{-1/2} L V^{-1/2} = I − V^{-1/2} A V^{-1/2},   v = V^{1/2} u.
//
// The embedding is the eigenvectors of the q smallest non-zero
// eigenvalues; the zero eigenvalue's vector (1, or V^{1/2} 1) is projected
// out of the q+1 bottom eigenvectors (not dropped as "the first", which
// is wrong when heat-kernel weights underflow and the null space grows),
// so Σ_i x_i = 0 (LEUnnormalised), Σ_i √d_i x_i = 0 (LENormalised) or
// Σ_i d_i x_i = 0 (LEGeneralised, the D-orthogonality of Belkin & Niyogi).
// They are found by the package's sparse eigensolver on the CSR Laplacian
// (Lanczos, on a Chebyshev filter for large n): no dense n×n matrix.
//
// Unifying view (paper §2.6): L (L̂ for LENormalised) is the precision of a
// Gaussian random field, and X is classical MDS on the covariance
// H (L + γI)⁻¹ H for any γ > 0; Implied returns L.
//
// Heat kernel: the paper's reference MATLAB code computes the n×n matrix
// exp(−‖y_i − y_j‖²/2) but reads it at the neighbour's slot number (1…k)
// instead of the neighbour's index, so its edge weights are not the heat
// kernel of the edge. This implementation uses the correct heat kernel of
// each edge, so our LE panels can differ from the paper's.
//
// ProjectTo is the Nyström (kernel) extension of Bengio et al. (2004),
// "Out-of-sample extensions for LLE, Isomap, MDS, Eigenmaps, and spectral
// clustering": a new point y is joined to its k nearest training points
// with the same weights a(y, y_j), and
//
//	v_c(y) = (1 − λ_c)⁻¹ Σ_j a(y, y_j) v_jc / √(d(y) d_j)        (LENormalised)
//	u_c(y) = (1 − λ_c)⁻¹ Σ_j a(y, y_j) u_jc / d(y)              (LEGeneralised)
//	u_c(y) = (d(y) − λ_c)⁻¹ Σ_j a(y, y_j) u_jc                  (LEUnnormalised)
//
// with d(y) = Σ_j a(y, y_j): the eigen-equation of row y of the extended
// graph solved for its own entry. A training point whose neighbourhood is
// unchanged is placed where LatentTo put it (exactly for a mutual kNN or ε
// graph; approximately for a union kNN graph, where other points' lists
// add edges). A new point with no neighbour within ε is placed at the
// origin.
type LaplacianEigenmaps struct {
	Q int // q, latent dimension; 1 ≤ q ≤ n−2

	// K is the neighbour count k of the kNN graph (symmetrised by union);
	// 0 means 10. Ignored when Epsilon > 0.
	K int
	// Epsilon, if > 0, replaces the kNN graph by the ε graph joining
	// points within distance ε.
	Epsilon float64
	// Disconnected is what Fit does when the graph has more than one
	// component (each would bring its own zero eigenvalue): the zero
	// value refuses (ErrDisconnected); LargestComponent embeds the
	// largest component only (see Kept); ConnectComponents joins the
	// components by their shortest edges (neighbours.DisconnectedPolicy).
	Disconnected neighbours.DisconnectedPolicy

	Weighting LEWeighting // HeatKernel (default) or ConstantWeights
	Edges     LEEdges     // LEUnionEdges (default) or LEDirectedSum (the reference code's)
	// T is the heat-kernel width t in a_ij = exp(−d_ij²/t); 0 means 2
	// (σ = 1 in exp(−d²/2σ²), the paper's reference setting). Scale it
	// with the data: t of the order of the squared kNN distances.
	T float64

	Problem LEProblem // LENormalised (default), LEGeneralised, LEUnnormalised

	Eigen *linalg.EigenSettings // sparse eigensolver settings; nil means defaults

	y     *mat.Dense
	k     int
	graph *linalg.CSR // weights A
	lap   *linalg.CSR // L̂ or L
	deg   []float64
	vals  []float64 // q+1 smallest eigenvalues of L̂ (or L), ascending
	x     *mat.Dense
	kept  []int // rows of Y embedded (LargestComponent), nil for all
	nAll  int   // rows of the Y given to Fit
}

// Fit builds the graph on the rows of Y (n×p), its weights and Laplacian,
// and solves the eigenproblem. It panics if q ≤ 0 or k < 0; it returns an
// error wrapping ErrTooFewPoints unless n ≥ q + 2 and n > k, ErrNaN for a
// non-finite Y, ErrDisconnected
// for a graph of more than one component under the default Disconnected
// policy (each component would bring its own zero eigenvalue), ErrSingular when
// every heat-kernel weight of a point underflows to zero (t too small),
// and ErrNotConverged from the eigensolver. Any error leaves the model
// unfitted.
func (m *LaplacianEigenmaps) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *LaplacianEigenmaps) FitContext(ctx context.Context, Y mat.Matrix) error {
	m.reset()
	checkSettings("LaplacianEigenmaps", m)
	// Settings: zero means the default; anything else out of range is a
	// programmer error (T = −1 or NaN used to fall back to the default).
	if m.T < 0 || math.IsNaN(m.T) {
		panic(fmt.Sprintf("dimred: LaplacianEigenmaps T = %v must be positive (0 means 2)", m.T))
	}
	if m.Epsilon < 0 || math.IsNaN(m.Epsilon) {
		panic(fmt.Sprintf("dimred: LaplacianEigenmaps Epsilon = %v is negative (0 means the kNN graph)", m.Epsilon))
	}
	if m.Weighting != HeatKernel && m.Weighting != ConstantWeights {
		panic(fmt.Sprintf("dimred: unknown LEWeighting %d", m.Weighting))
	}
	if m.Problem != LENormalised && m.Problem != LEGeneralised && m.Problem != LEUnnormalised {
		panic(fmt.Sprintf("dimred: unknown LEProblem %d", m.Problem))
	}
	if m.Edges != LEUnionEdges && m.Edges != LEDirectedSum {
		panic(fmt.Sprintf("dimred: unknown LEEdges %d", m.Edges))
	}
	n, _ := Y.Dims()
	kk := m.K
	if m.Epsilon > 0 {
		kk = 1 // K is ignored with an ε graph: only q bounds n
	}
	k, err := spectralK("LaplacianEigenmaps", m.Q, kk, n)
	if err != nil {
		return err
	}
	if err := checkSpectralY("LaplacianEigenmaps", Y); err != nil {
		return err
	}
	var g *linalg.CSR
	var nb *neighbours.Neighbours
	if m.Epsilon > 0 {
		g, err = neighbours.Search{}.EpsilonGraphContext(ctx, Y, m.Epsilon)
	} else if nb, err = (neighbours.Search{}).KNearestContext(ctx, Y, k); err == nil {
		g = nb.Graph(neighbours.Union)
	}
	if err != nil {
		return err
	}
	g, _, kept, err := checkGraph("LaplacianEigenmaps", g, Y, m.Disconnected)
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
	A := g.Map(func(i, j int, d float64) float64 {
		w := m.weight(d)
		if m.Edges == LEDirectedSum && nb != nil && isNeighbour(nb, i, j) && isNeighbour(nb, j, i) {
			w *= 2 // both directed edges i→j and j→i
		}
		return w
	})
	deg := A.RowSums()
	for i, d := range deg {
		if !(d > 0) {
			return fmt.Errorf("%w: LaplacianEigenmaps point %d has zero degree (every heat-kernel weight exp(−d²/t), t = %g, underflows); increase T", ErrSingular, i, m.t())
		}
	}
	var L *linalg.CSR
	if m.Problem == LEUnnormalised {
		L = neighbours.Laplacian(A)
	} else {
		var err error
		if L, err = neighbours.NormalisedLaplacian(A); err != nil {
			return errs.Wrap(err, "LaplacianEigenmaps")
		}
	}
	// L's null vector: 1 for L = V − A, V^{1/2} 1 for L̂ (connected graph).
	var u []float64
	if m.Problem != LEUnnormalised {
		u = make([]float64, n)
		for i, d := range deg {
			u[i] = math.Sqrt(d)
		}
	}
	vals, vecs, err := m.eigen(ctx, L, u)
	if err != nil {
		return err
	}
	var X *mat.Dense
	switch m.Problem {
	case LEGeneralised:
		// u = V^{-1/2} v has uᵀVu = 1; scale by √(Σ d).
		vol := 0.0
		for _, d := range deg {
			vol += d
		}
		X = nontrivial(L, vecs, u, m.Q, math.Sqrt(vol))
		for i := 0; i < n; i++ {
			s := 1 / math.Sqrt(deg[i])
			for c := 0; c < m.Q; c++ {
				X.Set(i, c, s*X.At(i, c))
			}
		}
	default:
		X = nontrivial(L, vecs, u, m.Q, math.Sqrt(float64(n)))
	}
	fixColumnSigns(X)
	m.y, m.k, m.graph, m.lap, m.deg, m.vals, m.x, m.nAll = mat.DenseCopyOf(Y), k, A, L, deg, vals, X, n
	return nil
}

// isNeighbour reports whether j is among the k nearest neighbours of i.
func isNeighbour(nb *neighbours.Neighbours, i, j int) bool {
	idx, _ := nb.Of(i)
	for _, c := range idx {
		if c == j {
			return true
		}
	}
	return false
}

func (m *LaplacianEigenmaps) t() float64 {
	if m.T > 0 {
		return m.T
	}
	return 2
}

// weight maps an edge length d to a_ij.
func (m *LaplacianEigenmaps) weight(d float64) float64 {
	if m.Weighting == ConstantWeights {
		return 1
	}
	return math.Exp(-d * d / m.t())
}

func (m *LaplacianEigenmaps) reset() {
	m.y, m.graph, m.lap, m.deg, m.vals, m.x, m.kept = nil, nil, nil, nil, nil, nil, nil
}

// Kept returns the rows of the fitted Y that the embedding holds, in
// order: all of 0, …, n−1 unless Disconnected = LargestComponent dropped
// the points outside the graph's largest component. Row r of LatentTo's X
// is point Kept()[r] of Y.
func (m *LaplacianEigenmaps) Kept() []int { m.mustFit(); return keptRows(m.kept, m.nAll) }

func (m *LaplacianEigenmaps) mustFit() {
	if m.x == nil {
		panic("dimred: LaplacianEigenmaps used before Fit")
	}
}

// LatentTo stores the embedding X (n×q).
func (m *LaplacianEigenmaps) LatentTo(dst *mat.Dense) {
	m.mustFit()
	r, c := m.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(m.x)
}

// EigenvaluesTo returns the q+1 smallest eigenvalues of L̂ (L for
// LEUnnormalised), ascending; the first is the trivial zero.
func (m *LaplacianEigenmaps) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	return dense.CopyVecTo(dst, m.vals)
}

// Graph returns the weighted adjacency A (n×n, symmetric) the embedding
// was computed from. It is the model's own: do not modify it.
func (m *LaplacianEigenmaps) Graph() *linalg.CSR { m.mustFit(); return m.graph }

// ImpliedLaplacian returns the Laplacian whose eigenvectors were taken:
// L̂ = I − V^{-1/2} A V^{-1/2}, or L = V − A for LEUnnormalised.
func (m *LaplacianEigenmaps) ImpliedLaplacian() *linalg.CSR { m.mustFit(); return m.lap }

// Implied returns the precision ImpliedLaplacian (SpectralModel), with the
// null vector V^{1/2} 1 for the normalised Laplacian.
func (m *LaplacianEigenmaps) Implied() ImpliedMatrix {
	m.mustFit()
	im := ImpliedMatrix{Precision: m.lap}
	if m.Problem != LEUnnormalised {
		im.Null = make([]float64, len(m.deg))
		for i, d := range m.deg {
			im.Null[i] = math.Sqrt(d)
		}
	}
	return im
}

// ProjectTo places new points by the Nyström extension described in the
// type's doc. It panics on a column mismatch or before Fit.
func (m *LaplacianEigenmaps) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, p := Ynew.Dims()
	if _, pt := m.y.Dims(); p != pt {
		panic(mat.ErrShape)
	}
	checkProjectInput("LaplacianEigenmaps.ProjectTo", Ynew, "Ynew")
	_, q := m.x.Dims()
	dense.ReuseAs(dst, r, q)
	var D mat.Dense
	linalg.SquaredDistances(&D, Ynew, m.y)
	Yn := dense.AsDense(Ynew)
	for a := 0; a < r; a++ {
		idx, d2 := nearestOf(D.RawRowView(a), m.k, m.Epsilon)
		exactSquared(d2, Yn.RawRowView(a), m.y, idx)
		dy := 0.0
		w := make([]float64, len(idx))
		for t := range idx {
			w[t] = m.weight(math.Sqrt(d2[t]))
			dy += w[t]
		}
		for c := 0; c < q; c++ {
			if dy == 0 {
				dst.Set(a, c, 0)
				continue
			}
			lam := m.vals[c+1]
			s := 0.0
			for t, j := range idx {
				switch m.Problem {
				case LENormalised:
					s += w[t] * m.x.At(j, c) / math.Sqrt(dy*m.deg[j])
				default:
					s += w[t] * m.x.At(j, c)
				}
			}
			switch m.Problem {
			case LENormalised:
				s /= 1 - lam
			case LEGeneralised:
				s /= dy * (1 - lam)
			case LEUnnormalised:
				s /= dy - lam
			}
			dst.Set(a, c, s)
		}
	}
}

// nearestOf returns the indices and squared distances of the k smallest
// entries of the row of squared distances d2 (nearest first), or, when
// eps > 0, of every entry within eps.
func nearestOf(d2 []float64, k int, eps float64) ([]int, []float64) {
	if eps > 0 {
		var idx []int
		var ds []float64
		for j, v := range d2 {
			if v <= eps*eps {
				idx, ds = append(idx, j), append(ds, v)
			}
		}
		return idx, ds
	}
	idx := make([]int, 0, k+1)
	ds := make([]float64, 0, k+1)
	for j, v := range d2 {
		if len(idx) == k && v >= ds[k-1] {
			continue
		}
		// insertion into the sorted top-k
		pos := len(idx)
		for pos > 0 && ds[pos-1] > v {
			pos--
		}
		idx = append(idx, 0)
		ds = append(ds, 0)
		copy(idx[pos+1:], idx[pos:])
		copy(ds[pos+1:], ds[pos:])
		idx[pos], ds[pos] = j, v
		if len(idx) > k {
			idx, ds = idx[:k], ds[:k]
		}
	}
	return idx, ds
}

// leShiftInvertFlopsPerNonzero sets LaplacianEigenmaps' solver choice:
// shift-invert when the envelope Cholesky factor of L + σI costs at most
// this many flops per non-zero of L (envelopeFlops ≤ c·nnz(L)), the
// Chebyshev–Lanczos of the package's sparse eigensolver otherwise.
const leShiftInvertFlopsPerNonzero = 2000

// eigen returns the q+1 smallest eigenpairs of L (null vector u; nil
// means the constant). Graphs of data near a low-dimensional manifold
// have a narrow envelope after reverse Cuthill–McKee ordering, and their
// small eigenvalues cluster (a path-like graph of n points has
// λ_j ≈ (πj/n)²): there the shift-invert solver of LLE is the fast one
// (one thread, k = 10: a jittered 1-D grid of n = 10 000 points 7.6 s by
// Chebyshev–Lanczos, 31 ms by shift-invert; the swiss roll at n = 4000
// 134 ms against 33 ms). A graph of high intrinsic dimension has an
// envelope of order n² and a factorisation of order n³ (50-D Gaussian
// data, n = 4000: 6.7 s against 0.29 s for Chebyshev–Lanczos), which the
// flop budget refuses before any factorising is done.
func (m *LaplacianEigenmaps) eigen(ctx context.Context, L *linalg.CSR, u []float64) ([]float64, *mat.Dense, error) {
	if m.Eigen == nil || m.Eigen.Method == linalg.EigenAuto {
		if u == nil {
			u = make([]float64, L.N)
			for i := range u {
				u[i] = 1
			}
		}
		budget := leShiftInvertFlopsPerNonzero * float64(L.RowPtr[L.N])
		vals, vecs, err := bottomShiftInvertOpt(ctx, L, m.Q+1, m.Eigen, u, budget)
		if err == nil {
			return vals, vecs, nil
		}
		if cancelled(err) {
			return nil, nil, err
		}
	}
	return bottomEigen(ctx, "LaplacianEigenmaps", L, m.Q, m.Eigen)
}
