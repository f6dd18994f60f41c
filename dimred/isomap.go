package dimred

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Isomap is isometric feature mapping (Tenenbaum, de Silva & Langford
// 2000, "A global geometric framework for nonlinear dimensionality
// reduction"; book §5.6, spectral paper §2.8): classical MDS on geodesic
// distances. The k-nearest-neighbour graph (symmetrised by union) or the
// ε graph, with Euclidean edge lengths, gives shortest-path distances
// d_G(i, j) (Dijkstra from every source, in parallel); then
//
//	B = −½ H D_G^{∘2} H,   X = U_q Λ_q^{1/2},
//
// exactly ClassicalMDS.FitDistances of the geodesics. D_G need not be
// Euclidean, so B can have negative eigenvalues (Weinberger et al. 2004);
// EigenvaluesTo reports them (all n of them with FullSpectrum) and
// NegativeMass summarises them. On a complete graph the geodesics are
// the Euclidean distances and Isomap is classical MDS (PCA).
//
// Unifying view: Isomap is kernel PCA with K = −½ D_G^{∘2}, a dense
// covariance B = H K H (Implied). It is the one method of the family
// whose implied precision is not sparse.
//
// Disconnected graphs: geodesics between components are infinite. By
// default (Disconnected = RefuseDisconnected) Fit returns an error wrapping
// ErrDisconnected that names the components; LargestComponent embeds the
// largest component only (LatentTo then has one row per point of Kept);
// ConnectComponents joins every pair of components by its shortest edge,
// as scikit-learn's Isomap does (see neighbours.DisconnectedPolicy).
//
// Landmark Isomap (de Silva & Tenenbaum 2003, "Global versus local methods
// in nonlinear dimensionality reduction"): with Landmarks = m > 0, m
// points are drawn at random (Src), shortest paths are run from them only
// (O(m·n log n) time, m×n memory instead of n×n), classical MDS is fitted
// to the m×m landmark geodesics, and every point is placed by the
// landmark (distance-based triangulation) formula
//
//	x_a = −½ Λ_q^{-1/2} U_qᵀ (δ_a − δ̄),
//
// δ_a the squared geodesics from a to the landmarks and δ̄ their mean over
// landmarks — ClassicalMDS.ProjectDistancesTo. ProjectTo places new
// points the same way (full Isomap uses every training point as a
// landmark, the Nyström extension): a new point's geodesic to a reference
// point r is min_j ‖y − y_j‖ + d_G(j, r) over its k nearest training
// points j.
//
// Beyond memory: full Isomap holds the n×n geodesics, 8n² bytes (80 GB at
// n = 100 000; it stops near n = 44 000 in 24 GB). The landmark route is
// the one for such n: at n = 100 000 swiss-roll points, k = 10 and
// m = 400 landmarks it took 14.3 s of CPU on one thread (AMD EPYC) with a
// peak resident set of 974 MB (BenchmarkIsomapLandmark100k; the m×n
// geodesics are 320 MB of it).
type Isomap struct {
	Q int // q, latent dimension; 1 ≤ q ≤ n−2

	// K is the neighbour count k; 0 means 10. Ignored when Epsilon > 0.
	K int
	// Epsilon, if > 0, replaces the kNN graph by the ε graph.
	Epsilon float64
	// Disconnected is what Fit does when the graph has more than one
	// component; the zero value refuses (ErrDisconnected).
	Disconnected neighbours.DisconnectedPolicy

	// Landmarks, if > 0, is the number m of landmark points
	// (q < m ≤ n) of landmark Isomap.
	Landmarks int
	Src       rand.Source // landmark choice; nil means a fixed seed

	// FullSpectrum is passed to ClassicalMDS: if true, B (n×n, or m×m
	// with landmarks) is diagonalised densely and all its eigenvalues
	// reported; by default only the top q are computed.
	FullSpectrum bool
	Eigen        *linalg.EigenSettings // partial eigensolver settings; nil means defaults

	y     *mat.Dense
	k     int
	graph *linalg.CSR
	geo   *mat.SymDense // n×n geodesics (full)
	lgeo  *mat.Dense    // m×n geodesics from the landmarks
	land  []int
	kept  []int // rows of Y embedded (LargestComponent), nil for all
	nAll  int   // rows of the Y given to Fit
	mds   *ClassicalMDS
	x     *mat.Dense
	// sc is the power of two the model works at (linalg.UnitScale): y,
	// graph, geo, lgeo and mds hold the data divided by sc, so that the
	// squared geodesics of data ~1e±200 neither under- nor overflow; the
	// exported results are scaled back. 1 for data of ordinary scale.
	sc float64
}

// Fit builds the graph, the geodesics and the embedding. It panics if
// q ≤ 0, k < 0 or (with landmarks) m ≤ q + 1. It returns an error wrapping
// ErrTooFewPoints unless n ≥ q + 2, n > k and n ≥ m, ErrNaN for a non-finite Y, ErrDisconnected for a
// disconnected graph, ErrNotEuclidean when the q-th eigenvalue of B is
// negative, and ErrNotConverged from the eigensolver. Any error leaves
// the model unfitted.
func (m *Isomap) Fit(Y mat.Matrix) error { return m.FitContext(context.Background(), Y) }

// FitContext is Fit under ctx: cancelling ctx stops the fit promptly with an
// error wrapping ctx.Err() and leaves the model unfitted; the fit reports
// its phases to ctx's progress.Reporter (see the package doc,
// "Cancellation and progress").
func (m *Isomap) FitContext(ctx context.Context, Y mat.Matrix) error {
	m.reset()
	checkSettings("Isomap", m)
	n, _ := Y.Dims()
	k, err := spectralK("Isomap", m.Q, m.K, n)
	if err != nil {
		return err
	}
	if m.Landmarks != 0 && m.Landmarks <= m.Q+1 {
		panic(fmt.Sprintf("dimred: Isomap Landmarks = %d must exceed q + 1 = %d", m.Landmarks, m.Q+1))
	}
	if m.Landmarks > n {
		return fmt.Errorf("%w: Isomap with %d landmarks needs as many points, have %d", ErrTooFewPoints, m.Landmarks, n)
	}
	if err := checkSpectralY("Isomap", Y); err != nil {
		return err
	}
	Y0 := Y
	Y, sc := linalg.UnitScale(Y)
	var g *linalg.CSR
	if m.Epsilon > 0 {
		g, err = neighbours.Search{}.EpsilonGraphContext(ctx, Y, m.Epsilon/sc)
	} else {
		g, err = neighbours.Search{}.KNNGraphContext(ctx, Y, k, neighbours.Union)
	}
	if err != nil {
		return err
	}
	g, _, kept, err := checkGraph("Isomap", g, Y, m.Disconnected)
	if err != nil {
		return err
	}
	if kept != nil {
		if err := m.FitContext(ctx, selectRows(Y0, kept)); err != nil {
			return err
		}
		m.kept, m.nAll = kept, n
		return nil
	}
	mds := &ClassicalMDS{Q: m.Q, Plain: true, FullSpectrum: m.FullSpectrum, Eigen: m.Eigen}
	X := mat.NewDense(n, m.Q, nil)
	var maxG float64 // the largest geodesic entering B
	if m.Landmarks == 0 {
		G, err := neighbours.GeodesicDistancesContext(ctx, g)
		if err != nil {
			return err
		}
		if err := mds.FitDistancesContext(ctx, G); err != nil {
			return errs.Wrap(err, "Isomap")
		}
		mds.LatentTo(X)
		m.geo = G
		maxG = maxEntry(G)
	} else {
		land := rng.New(m.Src).Perm(n)[:m.Landmarks]
		L, err := neighbours.GeodesicDistancesFromContext(ctx, g, land)
		if err != nil {
			return err
		}
		mm := len(land)
		Delta := mat.NewSymDense(mm, nil)
		for a := 0; a < mm; a++ {
			for b := a + 1; b < mm; b++ {
				v := 0.5 * (L.At(a, land[b]) + L.At(b, land[a]))
				Delta.SetSym(a, b, v)
			}
		}
		maxG = maxEntry(Delta)
		if err := landmarkMDS(ctx, mds, Delta, L.T(), X); err != nil {
			return errs.Wrap(err, "landmark Isomap")
		}
		m.lgeo, m.land = L, land
	}
	if err := isomapRange(mds, sc, maxG); err != nil {
		return err
	}
	if sc != 1 {
		X.Scale(sc, X)
	}
	m.y, m.k, m.graph, m.mds, m.x, m.sc, m.nAll = mat.DenseCopyOf(Y), k, g, mds, X, sc, n
	return nil
}

// isomapRange reports ErrOverflow when B's eigenvalues, or B itself, in
// the caller's units overflow float64: the model works on the data divided
// by sc (linalg.UnitScale), and EigenvaluesTo and CentredKernel scale back
// by sc², which for data ~1e300 gave +Inf eigenvalues and a +Inf B with no
// error (ClassicalMDS reports ErrOverflow on the same data). maxG is the
// largest geodesic (at the working scale) entering B; |B_ij| ≤ 2 max_ij
// d_ij², so B is finite when 2(maxG·sc)² is.
func isomapRange(mds *ClassicalMDS, sc, maxG float64) error {
	if sc == 1 {
		return nil
	}
	for j, v := range mds.EigenvaluesTo(nil) {
		if math.IsInf(v*sc*sc, 0) {
			return errs.Overflowf("Isomap eigenvalue λ_%d of B = −½HD_G²H is %.4g·%.4g², beyond float64", j+1, v, sc)
		}
	}
	if g := maxG * sc; math.IsInf(2*g*g, 0) {
		return errs.Overflowf("Isomap centred kernel B = −½HD_G²H: the largest geodesic distance %.4g·%.4g squared is beyond float64", maxG, sc)
	}
	return nil
}

// Kept returns the rows of the fitted Y that the embedding holds, in
// order: all of 0, …, n−1 unless Disconnected = LargestComponent dropped
// the points outside the graph's largest component. Row r of LatentTo's X
// is point Kept()[r] of Y.
func (m *Isomap) Kept() []int { m.mustFit(); return keptRows(m.kept, m.nAll) }

func (m *Isomap) reset() {
	m.y, m.graph, m.geo, m.lgeo, m.land, m.mds, m.x, m.kept = nil, nil, nil, nil, nil, nil, nil, nil
}

func (m *Isomap) mustFit() {
	if m.x == nil {
		panic("dimred: Isomap used before Fit")
	}
}

// LatentTo stores the embedding X (n×q).
func (m *Isomap) LatentTo(dst *mat.Dense) {
	m.mustFit()
	r, c := m.x.Dims()
	dense.ReuseAs(dst, r, c)
	dst.Copy(m.x)
}

// EigenvaluesTo returns the eigenvalues of B = −½ H D_G^{∘2} H (of the
// landmarks' B with Landmarks), descending: all of them, negative ones
// included, with FullSpectrum, otherwise the top q.
func (m *Isomap) EigenvaluesTo(dst []float64) []float64 {
	m.mustFit()
	dst = m.mds.EigenvaluesTo(dst)
	if m.sc != 1 {
		floats.Scale(m.sc*m.sc, dst)
	}
	return dst
}

// NegativeMass returns Σ|λ⁻| / Σ|λ| over the spectrum of B (see
// ClassicalMDS.NegativeMass). It needs the whole spectrum: it panics
// unless the model was fitted with FullSpectrum (and without Landmarks,
// whose B is the landmarks' own).
func (m *Isomap) NegativeMass() float64 {
	m.mustFit()
	if !m.mds.all {
		panic("dimred: Isomap.NegativeMass needs the whole spectrum: fit with FullSpectrum")
	}
	return m.mds.NegativeMass()
}

// Graph returns the neighbourhood graph with Euclidean edge lengths. It
// is the model's own: do not modify it.
func (m *Isomap) Graph() *linalg.CSR {
	m.mustFit()
	if m.sc != 1 {
		return m.graph.Map(func(_, _ int, v float64) float64 { return v * m.sc })
	}
	return m.graph
}

// Geodesics returns the n×n geodesic distances d_G (nil with Landmarks).
// It is the model's own: do not modify it.
func (m *Isomap) Geodesics() *mat.SymDense {
	m.mustFit()
	if m.sc != 1 && m.geo != nil {
		g := mat.NewSymDense(m.geo.SymmetricDim(), nil)
		g.ScaleSym(m.sc, m.geo)
		return g
	}
	return m.geo
}

// LandmarkIndices returns the landmark points (nil for full Isomap).
func (m *Isomap) LandmarkIndices() []int { m.mustFit(); return append([]int(nil), m.land...) }

// CentredKernel returns B = −½ H D_G^{∘2} H, n×n (the landmarks' m×m B
// with Landmarks), newly allocated.
func (m *Isomap) CentredKernel() *mat.SymDense {
	m.mustFit()
	var D *mat.SymDense
	if m.geo != nil {
		n := m.geo.SymmetricDim()
		D = mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := m.geo.At(i, j)
				D.SetSym(i, j, v*v)
			}
		}
	} else {
		mm := len(m.land)
		D = mat.NewSymDense(mm, nil)
		for a := 0; a < mm; a++ {
			for b := a + 1; b < mm; b++ {
				v := 0.5 * (m.lgeo.At(a, m.land[b]) + m.lgeo.At(b, m.land[a]))
				D.SetSym(a, b, v*v)
			}
		}
	}
	B := linalg.DoubleCentre(nil, D)
	if m.sc != 1 {
		B.ScaleSym(m.sc*m.sc, B)
	}
	return B
}

// Implied returns the covariance CentredKernel (SpectralModel).
func (m *Isomap) Implied() ImpliedMatrix {
	return ImpliedMatrix{Covariance: m.CentredKernel()}
}

// ProjectTo places new points by the landmark formula on their geodesics
// to the reference points (all training points, or the landmarks),
// computed through their k nearest training points (the ε-ball with
// Epsilon). A new point with no training point within ε panics.
func (m *Isomap) ProjectTo(dst *mat.Dense, Ynew mat.Matrix) {
	m.mustFit()
	r, p := Ynew.Dims()
	if _, pt := m.y.Dims(); p != pt {
		panic(mat.ErrShape)
	}
	checkProjectInput("Isomap.ProjectTo", Ynew, "Ynew")
	if m.sc != 1 {
		// The model works at unit scale (see sc).
		s := mat.DenseCopyOf(Ynew)
		s.Scale(1/m.sc, s)
		Ynew = s
	}
	var D mat.Dense
	linalg.SquaredDistances(&D, Ynew, m.y)
	for a := 0; a < r; a++ {
		for j, v := range D.RawRowView(a) {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				panic(fmt.Sprintf("dimred: Isomap.ProjectTo: the squared distance of Ynew row %d to training point %d overflows (%v): Ynew is far outside the scale of the training data", a, j, v))
			}
		}
	}
	nref := len(m.land)
	if m.geo != nil {
		nref = m.geo.SymmetricDim()
	}
	G := mat.NewDense(r, nref, nil)
	Yn := dense.AsDense(Ynew)
	parallel.For(r, 8, func(lo, hi int) {
		for a := lo; a < hi; a++ {
			idx, d2 := nearestOf(D.RawRowView(a), m.k, m.Epsilon/m.sc)
			exactSquared(d2, Yn.RawRowView(a), m.y, idx)
			if len(idx) == 0 {
				panic(fmt.Sprintf("dimred: Isomap.ProjectTo: new point %d has no training point within ε = %g", a, m.Epsilon))
			}
			row := G.RawRowView(a)
			for c := range row {
				best := math.Inf(1)
				for t, j := range idx {
					var gj float64
					if m.geo != nil {
						gj = m.geo.At(j, c)
					} else {
						gj = m.lgeo.At(c, j)
					}
					if v := math.Sqrt(d2[t]) + gj; v < best {
						best = v
					}
				}
				row[c] = best
			}
		}
	})
	m.mds.ProjectDistancesTo(dst, G)
	if m.sc != 1 {
		dst.Scale(m.sc, dst)
	}
}

// maxEntry is the largest entry of the symmetric a.
func maxEntry(a mat.Symmetric) float64 {
	mx := 0.0
	n := a.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			mx = math.Max(mx, a.At(i, j))
		}
	}
	return mx
}
